package dev.graphmend.ir.cfg;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Where the CFG oracles find CPython 3.13 and its standard library (pyenv's 3.13.0, under
 * {@code $PYENV_ROOT} or {@code ~/.pyenv}). A missing one fails the test, unless
 * {@code GRAPHMEND_ALLOW_MISSING_ORACLE=1}, which turns it into a loudly aborted (skipped) test,
 * never a pass.
 */
final class OracleEnv {
    private OracleEnv() {}

    static Path home() {
        String env = System.getenv("PYENV_ROOT");
        Path root = env != null && !env.isBlank() ? Paths.get(env) : Paths.get(System.getProperty("user.home"), ".pyenv");
        return root.resolve("versions/3.13.0");
    }

    static Path python() {
        Path p = home().resolve("bin/python3");
        if (!Files.isExecutable(p)) missing("CPython 3.13 (" + p + ") is missing");
        return p;
    }

    static Path stdlib() {
        Path p = home().resolve("lib/python3.13");
        if (!Files.isDirectory(p)) missing("the CPython 3.13 standard library (" + p + ") is missing");
        return p;
    }

    /** Every {@code .py} file of the standard library (without site-packages), sorted. */
    static List<Path> stdlibFiles() throws IOException {
        Path lib = stdlib();
        try (Stream<Path> s = Files.walk(lib)) {
            return s.filter(p -> p.toString().endsWith(".py") && Files.isRegularFile(p))
                    .filter(p -> !lib.relativize(p).startsWith("site-packages"))
                    .sorted()
                    .collect(Collectors.toList());
        }
    }

    static Path reportDir() throws IOException {
        Path d = Paths.get("target", "oracle");
        Files.createDirectories(d);
        return d;
    }

    static void missing(String what) {
        String msg = "CFG ORACLE NOT RUN: " + what + " (install CPython 3.13.0 with pyenv)";
        if ("1".equals(System.getenv("GRAPHMEND_ALLOW_MISSING_ORACLE"))) {
            String bar = "!".repeat(100);
            System.err.println(bar + "\n!!! " + msg + "\n!!! GRAPHMEND_ALLOW_MISSING_ORACLE=1: reported as SKIPPED;"
                    + " the control-flow graphs are NOT checked by this oracle\n" + bar);
            Assumptions.abort(msg + " [skipped: GRAPHMEND_ALLOW_MISSING_ORACLE=1]");
        }
        fail(msg + ". Set GRAPHMEND_ALLOW_MISSING_ORACLE=1 to skip this check (reported as skipped).");
    }
}
