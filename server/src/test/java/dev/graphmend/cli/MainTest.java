package dev.graphmend.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.ir.dump.GmAstDump;
import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.PythonSourceParser;
import dev.graphmend.ir.parse.SyntaxError;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line as a user sees it: exit codes, streams, and {@code ast} with the real parser. */
class MainTest {
    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, out, new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void noArgumentsPrintsUsageOnStderrAndFails() {
        Run r = run();
        assertEquals(2, r.code());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("usage: graphmend"), r.err());
    }

    @Test
    void helpGoesToStdout() {
        for (String flag : new String[] {"--help", "-h"}) {
            Run r = run(flag);
            assertEquals(0, r.code());
            assertTrue(r.out().startsWith("usage: graphmend"), r.out());
            assertTrue(r.out().contains("ast PATH..."), r.out());
            assertEquals("", r.err());
        }
    }

    /** As in ruff: each command's -h/--help lists every flag it takes and exits 0, whatever else is given. */
    @Test
    void everyCommandHasItsOwnHelp() {
        java.util.Map<String, java.util.List<String>> flags = java.util.Map.of(
                "check", java.util.List.of("--format", "--select", "--ignore", "--torch-version", "--assume-compiled",
                        "--unsafe-fixes", "--no-config", "--exit-zero", "--quiet", "--help"),
                "fix", java.util.List.of("--diff", "--select", "--ignore", "--torch-version", "--assume-compiled",
                        "--unsafe-fixes", "--no-config", "--exit-zero", "--quiet", "--help"),
                "lsp", java.util.List.of("--stdio", "--debounce-ms", "--help"),
                "rule", java.util.List.of("CODE"),
                "ast", java.util.List.of("PATH"));
        for (var e : flags.entrySet()) {
            for (String help : new String[] {"--help", "-h"}) {
                Run r = run(e.getKey(), help);
                assertEquals(0, r.code(), e.getKey() + " " + help + ": " + r.err());
                assertTrue(r.out().startsWith("usage: graphmend " + e.getKey()), r.out());
                for (String flag : e.getValue()) assertTrue(r.out().contains(flag), e.getKey() + " lacks " + flag + ":\n" + r.out());
                assertEquals("", r.err());
            }
        }
        Run withPaths = run("check", "some/path.py", "-h");
        assertEquals(0, withPaths.code(), withPaths.err());
        assertTrue(withPaths.out().startsWith("usage: graphmend check"), withPaths.out());
        assertTrue(run("--help").out().contains("'graphmend COMMAND --help'"));
    }

    @Test
    void version() {
        Run r = run("--version");
        assertEquals(0, r.code());
        assertTrue(r.out().startsWith("graphmend ") && r.out().endsWith("\n"), r.out());
    }

    @Test
    void unknownCommand() {
        Run r = run("frobnicate");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("unknown command 'frobnicate'"), r.err());
    }

    @Test
    void astUsageErrors() {
        Run none = run("ast");
        assertEquals(2, none.code());
        assertTrue(none.err().contains("no PATH given"), none.err());
        Run opt = run("ast", "--frob", "x.py");
        assertEquals(2, opt.code());
        assertTrue(opt.err().contains("unknown option '--frob'"), opt.err());
        Run help = run("ast", "--help");
        assertEquals(0, help.code());
        assertTrue(help.out().startsWith("usage: graphmend ast"), help.out());
    }

    @Test
    void astMissingPathIsAnIoErrorButOtherFilesStillPrint(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("bad.py");
        Files.writeString(bad, "def (:\n");
        String missing = dir.resolve("missing.py").toString();
        Run r = run("ast", bad.toString(), missing);
        assertEquals(2, r.code());
        assertTrue(r.out().startsWith("== " + bad + "\n! syntax error "), r.out());
        assertTrue(r.err().contains(missing + ": no such file or directory"), r.err());
    }

    @Test
    void astReportsSyntaxErrorsWithExitOne(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("bad.py");
        Files.writeString(bad, "class A(:\n    pass\n");
        Run r = run("ast", bad.toString());
        assertEquals(1, r.code(), r.err());
        String[] lines = r.out().split("\n");
        assertEquals("== " + bad, lines[0]);
        assertTrue(lines.length >= 2, r.out());
        for (int i = 1; i < lines.length; i++) {
            assertTrue(lines[i].matches("! syntax error \\d+:\\d+ .*"), lines[i]);
        }
        assertEquals("", r.err());
    }

    /** Whatever the parser says about a valid file, `ast` prints exactly that (dump or errors). */
    @Test
    void astPrintsTheParsersDump(@TempDir Path dir) throws Exception {
        String src = "import torch\n\ndef f(x):\n    if x.sum() > 0:\n        return x * 2\n    return -x\n";
        Path file = dir.resolve("ok.py");
        Files.writeString(file, src);
        ParseResult pr = new PythonSourceParser().parse(src.getBytes(StandardCharsets.UTF_8));
        StringBuilder expected = new StringBuilder("== " + file + "\n");
        if (pr.hasErrors()) {
            for (SyntaxError e : pr.errors()) {
                expected.append("! syntax error ").append(e.line()).append(':').append(e.column())
                        .append(' ').append(e.message()).append('\n');
            }
        } else {
            expected.append(GmAstDump.dump(pr.module()));
        }
        Run r = run("ast", file.toString());
        assertEquals(expected.toString(), r.out());
        assertEquals(pr.hasErrors() ? 1 : 0, r.code());
    }

    @Test
    void outputIsUtf8(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue("UTF-8".equalsIgnoreCase(System.getProperty("sun.jnu.encoding")),
                "file names need a UTF-8 locale for this test");
        Path file = dir.resolve("modèle_注意.py");
        Files.writeString(file, "x = 'é'\n");
        Run r = run("ast", file.toString());
        assertTrue(r.out().startsWith("== " + file + "\n"), r.out());
    }
}
