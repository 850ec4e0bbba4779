package dev.graphmend.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 40, finding 6: {@code fix} must never write what does not compile. No rule is known to
 * produce such a rewrite (the engine checks each round), so the guard itself is tested with an
 * original text and a broken rewrite of it, and fix's handling of it by handing its rewrite step
 * such a text.
 */
class CompileGuardTest {
    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aRewriteWithANewSyntaxErrorIsCaughtAtTheOriginalLine() {
        String before = "import torch\n\ndef f(x):\n    y = x * 2\n    return y\n";
        // two lines inserted above, then the return broken: its original line is 5
        String broken = "import torch\nA = 1\nB = 2\n\ndef f(x):\n    y = x * 2\n    return (y\n";
        String why = CompileGuard.newSyntaxError(utf8(before), utf8(broken));
        assertTrue(why != null && why.endsWith(" at line 5"), why);
        assertNull(CompileGuard.newSyntaxError(utf8(before), utf8("import torch\nA = 1\n\ndef f(x):\n    return x\n")));
    }

    @Test
    void anErrorTheOriginalHadIsNotNew() {
        String before = "x = (\ny = 1\n";
        assertNull(CompileGuard.newSyntaxError(utf8(before), utf8("z = 0\n" + before)));
        String second = CompileGuard.newSyntaxError(utf8(before), utf8("def g(:\n    pass\n" + before));
        assertTrue(second != null && second.endsWith(" at line 1"), second);
    }

    @Test
    void aRewriteThatNoLongerDecodesIsCaught() {
        byte[] before = "# -*- coding: latin-1 -*-\ns = 'caf\u00e9'\n".getBytes(StandardCharsets.ISO_8859_1);
        byte[] after = "s = 'caf\u00e9'\n".getBytes(StandardCharsets.ISO_8859_1); // the declaration dropped: not UTF-8
        String why = CompileGuard.newSyntaxError(before, after);
        assertTrue(why != null, "undecodable bytes must not pass");
        assertEquals(why, CompileGuard.newSyntaxError(before, after));
    }

    /** fix leaves the file as it was, says why, and neither writes it nor puts it in the diff. */
    @Test
    void fixLeavesAFileWhoseRewriteWouldNotCompile(@TempDir Path dir) throws Exception {
        String before = "import torch\n\ndef f(x):\n    y = x * 2\n    return y\n";
        Path file = Files.writeString(dir.resolve("m.py"), before);
        for (boolean diff : new boolean[] {false, true}) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            Stdout stdout = new Stdout(out);
            FixCommand.Outcome o = FixCommand.rewrite(file.toString(), before, before.replace("return y", "return (y"), diff,
                    stdout, new PrintStream(err, true, StandardCharsets.UTF_8));
            stdout.flush();
            assertEquals(FixCommand.Outcome.WOULD_NOT_COMPILE, o);
            assertEquals(before, Files.readString(file));
            assertEquals(0, out.size(), "nothing in the diff");
            String said = err.toString(StandardCharsets.UTF_8);
            assertTrue(said.startsWith("graphmend: " + file + ": not fixed: the rewrite would not compile: ")
                    && said.contains(" at line 5 (the file is left unchanged"), said);
        }
    }
}
