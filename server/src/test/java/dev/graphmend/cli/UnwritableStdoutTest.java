package dev.graphmend.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 40, finding 2: a standard output that cannot be written (a full disk, a pipe whose reader
 * has gone) stopped {@code fix} part-way, leaving the last files of its order unfixed. Every file
 * is fixed (and checked) all the same; the failure is reported at the end, with exit status 2.
 */
class UnwritableStdoutTest {
    private static final int FILES = 40;

    /** 40 files of 40 prints each: their status lines are far more than one buffer or pipe holds. */
    private static Path project(Path dir) throws Exception {
        Path src = Files.createDirectory(dir.resolve("src"));
        StringBuilder body = new StringBuilder("import torch\n\n@torch.compile\ndef f(x):\n    y = x * 2\n");
        for (int i = 0; i < 40; i++) body.append("    print('hi ").append(i).append("', y)\n");
        body.append("    return y\n");
        for (int i = 0; i < FILES; i++) Files.writeString(src.resolve(String.format("m%02d.py", i)), body);
        return src;
    }

    private static void assertAllFixed(Path src) throws Exception {
        for (int i = 0; i < FILES; i++) {
            String text = Files.readString(src.resolve(String.format("m%02d.py", i)));
            assertTrue(!text.contains("    print('hi"), "m" + i + ".py was left unfixed:\n" + text);
        }
    }

    @Test
    void fixWritesEveryFileWhenStdoutIsFull(@TempDir Path dir) throws Exception {
        Path full = Paths.get("/dev/full");
        Assumptions.assumeTrue(Files.exists(full), "/dev/full (Linux)");
        Path src = project(dir);
        ChildCli.Result r = ChildCli.runTo(dir, full, "fix", "src");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("graphmend: cannot write standard output (No space left on device); the fixes were still written"),
                r.err());
        assertAllFixed(src);
    }

    @Test
    void fixWritesEveryFileIntoAClosedPipe(@TempDir Path dir) throws Exception {
        Path src = project(dir);
        ChildCli.Result r = ChildCli.runIntoClosedPipe(dir, "fix", "src");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("graphmend: cannot write standard output (Broken pipe); the fixes were still written"), r.err());
        assertAllFixed(src);
    }

    @Test
    void checkReportsAFullStdoutAndAClosedPipe(@TempDir Path dir) throws Exception {
        project(dir);
        Path full = Paths.get("/dev/full");
        if (Files.exists(full)) {
            ChildCli.Result r = ChildCli.runTo(dir, full, "check", "src");
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains("graphmend: cannot write standard output (No space left on device); every file was still checked"),
                    r.err());
        }
        ChildCli.Result piped = ChildCli.runIntoClosedPipe(dir, "check", "src");
        assertEquals(2, piped.code(), piped.err());
        assertTrue(piped.err().contains("graphmend: cannot write standard output (Broken pipe); every file was still checked"), piped.err());
    }
}
