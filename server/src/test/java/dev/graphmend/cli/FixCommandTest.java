package dev.graphmend.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.cli.CheckCommandTest.Run;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code graphmend fix}: what it rewrites, across files, and what it leaves alone. */
class FixCommandTest {
    /** One safe fix that inserts a line (after the import) and changes another. */
    private static final String PRINTS = "import torch\n\n@torch.compile\ndef f(x):\n    y = x * 2\n    print('hi', y)\n    return y\n";
    private static final String HELPER = String.join("\n",
            "import torch",
            "",
            "def compilable_check(cond):",
            "    torch._check_tensor_all(cond)",
            "");
    private static final String MODEL = String.join("\n",
            "import torch",
            "from torch import nn",
            "from ..utils import compilable_check",
            "",
            "class Attention(nn.Module):",
            "    def forward(self, hidden, shapes):",
            "        compilable_check((shapes[:, 0] * shapes[:, 1]).sum() == hidden.shape[1])",
            "        return hidden * 2",
            "");

    /** transformers' layout: the model imports the helper through its package's re-export. */
    private static Path project(Path dir) throws Exception {
        Path pkg = dir.resolve("pkg");
        Files.createDirectories(pkg.resolve("utils"));
        Files.createDirectories(pkg.resolve("models"));
        Files.writeString(pkg.resolve("__init__.py"), "");
        Files.writeString(pkg.resolve("utils/__init__.py"), "from .checks import compilable_check\n");
        Files.writeString(pkg.resolve("utils/checks.py"), HELPER);
        Files.writeString(pkg.resolve("models/__init__.py"), "");
        Files.writeString(pkg.resolve("models/attention.py"), MODEL);
        return pkg;
    }

    @Test
    void aHelperReachedThroughAReExportIsFixed(@TempDir Path dir) throws Exception {
        Path pkg = project(dir);
        Run r = CheckCommandTest.run("fix", "--unsafe-fixes", pkg.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.readString(pkg.resolve("utils/checks.py")).contains("    torch._assert_async(torch.all(cond))\n"),
                Files.readString(pkg.resolve("utils/checks.py")) + r.out() + r.err());
        assertEquals(MODEL, Files.readString(pkg.resolve("models/attention.py")));
    }

    @Test
    void unsafeFixesAreLeftOutByDefaultAndDiffWritesNothing(@TempDir Path dir) throws Exception {
        Path pkg = project(dir);
        Run safe = CheckCommandTest.run("fix", pkg.toString());
        assertEquals(HELPER, Files.readString(pkg.resolve("utils/checks.py")), safe.out() + safe.err());
        Run diff = CheckCommandTest.run("fix", "--diff", "--unsafe-fixes", pkg.toString());
        assertTrue(diff.out().contains("+    torch._assert_async(torch.all(cond))"), diff.out() + diff.err());
        assertEquals(HELPER, Files.readString(pkg.resolve("utils/checks.py")));
        Run quiet = CheckCommandTest.run("fix", "-q", "--exit-zero", "--diff", "--unsafe-fixes", pkg.toString());
        assertEquals(0, quiet.code(), quiet.err());
        assertEquals(diff.out(), quiet.out());
        assertFalse(quiet.err().contains("Would fix"), quiet.err());
    }

    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("unix");
    }

    /** Renaming over a file needs only the folder's write permission: a 0444 file must stay, root or not. */
    @Test
    void aReadOnlyFileIsRefusedAndLeftAlone(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(posix(), "POSIX permissions");
        Path f = Files.writeString(dir.resolve("m.py"), PRINTS);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("r--r--r--"));
        Run r = CheckCommandTest.run("fix", f.toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains(f + ": not written (left unchanged): the file is read-only (r--r--r--)"), r.err());
        assertEquals(PRINTS, Files.readString(f));
        assertEquals("r--r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        assertFalse(r.out().contains("fixed:"), r.out());
        // the safe fix was not written: it is not "remaining", nor does it need --unsafe-fixes
        assertTrue(r.out().contains("Fixed 0 diagnostics in 0 files; 1 fixable but not written (1 file could not be written, "
                + "see above); 0 remaining."), r.out());
        assertFalse(r.out().contains("unsafe"), r.out());
    }

    @Test
    void aRewrittenFileKeepsItsModeAndOwner(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(posix(), "POSIX permissions");
        Path f = Files.writeString(dir.resolve("m.py"), PRINTS);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-x---"));
        // only root can give a file away; anyone else checks the mode and their own ownership
        if (Files.getAttribute(f, "unix:uid").equals(0)) { // a new file is its creator's: we are root
            Files.setAttribute(f, "unix:uid", 65534);
            Files.setAttribute(f, "unix:gid", 65534);
        }
        Object uid = Files.getAttribute(f, "unix:uid"), gid = Files.getAttribute(f, "unix:gid");
        Run r = CheckCommandTest.run("fix", f.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(Files.readString(f).contains("torch._higher_order_ops.print(\"hi {y!s}\", y=y)"), Files.readString(f));
        assertEquals("rwxr-x---", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        assertEquals(uid, Files.getAttribute(f, "unix:uid"));
        assertEquals(gid, Files.getAttribute(f, "unix:gid"));
        try (var leftovers = Files.list(dir)) {
            assertEquals(List.of(f), leftovers.toList(), "no temporary file is left behind");
        }
    }

    /**
     * The engine inserts lines ending in LF; a CRLF file (with a BOM), a CR file and a Latin-1
     * file must come out exactly as the LF file does, in their own endings and encoding.
     */
    @Test
    void lineEndingsBomAndEncodingAreKept(@TempDir Path dir) throws Exception {
        String latin = "# -*- coding: latin-1 -*-\n" + PRINTS.replace("'hi'", "'café'");
        Path lfUtf8 = Files.writeString(dir.resolve("lf.py"), PRINTS), lfLatin = Files.write(dir.resolve("lf_latin.py"), latin.getBytes(StandardCharsets.ISO_8859_1));
        // torch 2.10: print gets the defer fix, which inserts a line (the in-graph print of 2.15 inserts none)
        assertEquals(0, CheckCommandTest.run("fix", "--torch-version", "2.10", lfUtf8.toString(), lfLatin.toString()).code());
        String fixed = Files.readString(lfUtf8), fixedLatin = Files.readString(lfLatin, StandardCharsets.ISO_8859_1);
        assertTrue(fixed.contains("add(print)\n") && fixedLatin.contains("'café', y.clone()"), fixed + fixedLatin);

        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        Object[][] cases = {
            {"crlf_bom.py", PRINTS, "\r\n", StandardCharsets.UTF_8, bom, fixed},
            {"cr.py", PRINTS, "\r", StandardCharsets.UTF_8, new byte[0], fixed},
            {"crlf_latin.py", latin, "\r\n", StandardCharsets.ISO_8859_1, new byte[0], fixedLatin},
        };
        for (Object[] c : cases) {
            Path f = dir.resolve((String) c[0]);
            Charset cs = (Charset) c[3];
            String eol = (String) c[2];
            Files.write(f, concat((byte[]) c[4], ((String) c[1]).replace("\n", eol).getBytes(cs)));
            Run r = CheckCommandTest.run("fix", "--torch-version", "2.10", f.toString());
            assertEquals(0, r.code(), c[0] + ": " + r.out() + r.err());
            byte[] expected = concat((byte[]) c[4], ((String) c[5]).replace("\n", eol).getBytes(cs));
            assertArrayEquals(expected, Files.readAllBytes(f), c[0] + ": " + new String(Files.readAllBytes(f), cs));
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /**
     * A real failure from the OS, even as root: a file name of 240 bytes is legal, the temporary
     * file's ("." + name + "." + random + ".graphmend-tmp") is longer than the 255 bytes allowed.
     */
    @Test
    void aFailedWriteExitsTwoWithTheOsReasonAndIsNotCounted(@TempDir Path dir) throws Exception {
        Path f;
        try {
            f = Files.writeString(dir.resolve("m".repeat(237) + ".py"), PRINTS);
        } catch (java.io.IOException e) {
            Assumptions.abort("this file system does not take 240-byte names: " + e.getMessage());
            return;
        }
        Path other = Files.writeString(dir.resolve("ok.py"), PRINTS);
        Run r = CheckCommandTest.run("fix", f.toString(), other.toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains(f + ": not written (left unchanged): File name too long"), r.err());
        assertEquals(PRINTS, Files.readString(f));
        assertFalse(r.out().contains(f + ":6: GM102 fixed"), r.out());
        assertTrue(r.out().contains(other + ":6: GM102 fixed"), r.out());
        assertTrue(r.out().contains("Fixed 1 diagnostic in 1 file; 1 fixable but not written (1 file could not be written, see above); 0 remaining."), r.out());
    }

    /** An absolute path is named as git names it, without its root: `a//root/m.py` made `patch -p1` write to /root/m.py. */
    @Test
    void anAbsolutePathIsNamedWithoutItsRoot() throws Exception {
        byte[] x1 = "x = 1\n".getBytes(StandardCharsets.UTF_8), x2 = "x = 2\n".getBytes(StandardCharsets.UTF_8);
        String out = new String(FixCommand.diff("/work/pkg/m.py", x1, x2), StandardCharsets.UTF_8);
        assertTrue(out.startsWith("--- a/work/pkg/m.py\n+++ b/work/pkg/m.py\n@@ "), out);
        String relative = new String(FixCommand.diff("./pkg/m.py", x1, x2), StandardCharsets.UTF_8);
        // git refuses "a/./pkg/m.py" as an invalid path
        assertTrue(relative.startsWith("--- a/pkg/m.py\n+++ b/pkg/m.py\n@@ "), relative);
    }

    /** The diff goes to `git apply` as it is: a/ and b/ prefixes, stdout carrying nothing else. */
    @Test
    void gitApplyTakesTheDiff(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(git(dir, "init", "-q") == 0, "git is needed for this test");
        Files.writeString(dir.resolve("m.py"), PRINTS);
        Files.writeString(dir.resolve("no_eol.py"), PRINTS.substring(0, PRINTS.length() - 1));
        Files.write(dir.resolve("crlf.py"), PRINTS.replace("\n", "\r\n").getBytes(StandardCharsets.UTF_8));
        // git apply wants paths relative to the repository: run the command line in it
        ChildCli.Result r = ChildCli.run(dir, "fix", "--diff", "crlf.py", "m.py", "no_eol.py");
        byte[] diff = r.out();
        String out = r.outText(), status = r.err();
        assertEquals(1, r.code(), out + status);
        assertTrue(out.startsWith("--- a/crlf.py\n+++ b/crlf.py\n@@ "), out);
        assertTrue(out.contains("\n--- a/m.py\n+++ b/m.py\n@@ "), out);
        assertTrue(out.contains("\n\\ No newline at end of file\n"), out);
        assertFalse(out.contains("Would fix") || out.contains("fixed:"), out);
        assertTrue(status.contains("Would fix 3 diagnostics in 3 files"), status);

        Path patch = Files.write(dir.resolve("fix.diff"), diff);
        assertEquals(0, git(dir, "apply", "--check", patch.toString()));
        assertEquals(0, git(dir, "apply", patch.toString()));
        // applying the diff gives what fix itself writes
        Path fixedDir = Files.createDirectory(dir.resolve("fixed"));
        for (String name : List.of("crlf.py", "m.py", "no_eol.py")) {
            Path copy = fixedDir.resolve(name);
            Files.write(copy, name.equals("crlf.py") ? PRINTS.replace("\n", "\r\n").getBytes(StandardCharsets.UTF_8)
                    : (name.equals("m.py") ? PRINTS : PRINTS.substring(0, PRINTS.length() - 1)).getBytes(StandardCharsets.UTF_8));
            assertEquals(0, CheckCommandTest.run("fix", copy.toString()).code());
            assertArrayEquals(Files.readAllBytes(copy), Files.readAllBytes(dir.resolve(name)), name);
        }
    }

    private static int git(Path dir, String... args) throws Exception {
        try {
            return ChildCli.git(dir, args).code();
        } catch (AssertionError e) {
            return -1; // no git
        }
    }
}
