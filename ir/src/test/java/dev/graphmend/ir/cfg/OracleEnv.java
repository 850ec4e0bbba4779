package dev.graphmend.ir.cfg;


import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Where the CFG oracles find CPython 3.13 and its standard library (pyenv's 3.13.0, under
 * {@code $PYENV_ROOT} or {@code ~/.pyenv}). A missing one fails the test, unless
 * {@code GRAPHMEND_ALLOW_MISSING_ORACLE=1}, which turns it into a loudly aborted (skipped) test,
 * never a pass.
 */
final class OracleEnv {
    private OracleEnv() {}

    static Path home() {
        return dev.graphmend.ir.oracle.OracleRequirements.pyenvVersions().resolve("3.13.0");
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
        dev.graphmend.ir.oracle.OracleRequirements.notRun("CFG oracle (control-flow graphs against CPython 3.13's execution)", what,
                dev.graphmend.ir.oracle.OracleRequirements.HOW_PYENV);
    }
}
