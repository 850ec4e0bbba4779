package dev.graphmend.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.cli.CheckCommandTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 40, finding 3: a FIFO, or a link to /dev/zero, named {@code *.py} hung {@code check} and
 * {@code fix} (reading a FIFO blocks until a writer comes; /dev/zero never ends). Neither is ever
 * opened: named on the command line it is an error that says what it is; met in a walk it is
 * left out without a word, as a folder's other non-Python entries are.
 */
class NonRegularFilesTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);
    private Path dir;

    @BeforeEach
    void tree(@TempDir Path tmp) throws Exception {
        Assumptions.assumeTrue(Files.exists(Paths.get("/dev/zero")), "/dev/zero and mkfifo (POSIX)");
        dir = tmp;
        Files.writeString(dir.resolve("ok.py"), "import torch\n\n@torch.compile\ndef f(x):\n    print(x)\n    return x\n");
        Process p = new ProcessBuilder("mkfifo", dir.resolve("fifo.py").toString()).start();
        assertEquals(0, p.waitFor());
        Files.createSymbolicLink(dir.resolve("zero.py"), Paths.get("/dev/zero"));
    }

    @Test
    void aWalkLeavesThemOut() {
        for (String command : new String[] {"check", "fix"}) {
            Run r = assertTimeoutPreemptively(LIMIT, () -> CheckCommandTest.run(command, dir.toString()));
            assertFalse(r.err().contains("fifo.py") || r.err().contains("zero.py"), r.err());
            assertFalse(r.out().contains("fifo.py") || r.out().contains("zero.py"), r.out());
            assertTrue(r.out().contains("ok.py:5"), command + ": " + r.out() + r.err());
        }
    }

    @Test
    void namedOnTheCommandLineTheyAreErrors() {
        Run r = assertTimeoutPreemptively(LIMIT, () -> CheckCommandTest.run("check", "--output-format", "json",
                dir.resolve("fifo.py").toString(), dir.resolve("zero.py").toString(), dir.resolve("ok.py").toString()));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(dir.resolve("fifo.py") + ": not a regular file (a FIFO): not read"), r.err());
        assertTrue(r.err().contains(dir.resolve("zero.py") + ": not a regular file (a character device): not read"), r.err());
        assertTrue(r.out().contains("\"message\": \"not a regular file (a FIFO): not read\""), r.out());
        assertTrue(r.out().contains("ok.py"), "the readable file is still checked: " + r.out());

        Run fix = assertTimeoutPreemptively(LIMIT, () -> CheckCommandTest.run("fix", dir.resolve("fifo.py").toString(),
                dir.resolve("ok.py").toString()));
        assertEquals(2, fix.code(), fix.err());
        assertTrue(fix.err().contains(dir.resolve("fifo.py") + ": not a regular file (a FIFO): not read"), fix.err());
        assertTrue(fix.out().contains("ok.py:5: GM102 fixed"), fix.out());
    }
}
