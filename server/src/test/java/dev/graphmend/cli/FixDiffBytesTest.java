package dev.graphmend.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 40, finding 1: {@code fix --diff | git apply} must give, byte for byte, what {@code fix}
 * writes, whatever the file's encoding, BOM and line endings. The diff was re-encoded as UTF-8, so
 * git rejected a Latin-1 file's hunks (and a CR-only file's with a BOM), and with them the whole patch.
 */
class FixDiffBytesTest {
    private static final String PRINTS = "import torch\n\n@torch.compile\ndef f(x):\n    y = x * 2\n    print('hi', y)\n    return y\n";
    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    /** The four files: Latin-1 with a coding declaration, CR-only with a BOM, CRLF, LF. */
    private static Map<String, byte[]> files() {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("latin.py", ("# -*- coding: latin-1 -*-\n" + PRINTS.replace("'hi'", "'café'")).getBytes(StandardCharsets.ISO_8859_1));
        byte[] cr = PRINTS.replace("\n", "\r").getBytes(StandardCharsets.UTF_8);
        byte[] crBom = new byte[BOM.length + cr.length];
        System.arraycopy(BOM, 0, crBom, 0, BOM.length);
        System.arraycopy(cr, 0, crBom, BOM.length, cr.length);
        files.put("cr_bom.py", crBom);
        files.put("crlf.py", PRINTS.replace("\n", "\r\n").getBytes(StandardCharsets.UTF_8));
        files.put("lf.py", PRINTS.getBytes(StandardCharsets.UTF_8));
        return files;
    }

    private static void write(Path dir, Map<String, byte[]> files) throws Exception {
        for (var e : files.entrySet()) Files.write(dir.resolve(e.getKey()), e.getValue());
    }

    @Test
    void gitApplyOfTheDiffGivesWhatFixWrites(@TempDir Path tmp) throws Exception {
        Map<String, byte[]> files = files();
        Path repo = Files.createDirectory(tmp.resolve("repo")), fixed = Files.createDirectory(tmp.resolve("fixed"));
        assertEquals(0, ChildCli.git(repo, "init", "-q").code());
        write(repo, files);
        write(fixed, files);
        List<String> names = List.copyOf(files.keySet());
        // torch 2.10: print gets the defer fix, which inserts lines (and so a hunk with context)
        String[] diffArgs = concat(new String[] {"fix", "--diff", "--torch-version", "2.10"}, names);
        ChildCli.Result diff = ChildCli.run(repo, diffArgs);
        assertEquals(1, diff.code(), diff.err());
        Path patch = Files.write(tmp.resolve("fix.diff"), diff.out());
        // the whole patch, and each file's part alone, must apply
        ChildCli.Result check = ChildCli.git(repo, "apply", "--check", patch.toString());
        assertEquals(0, check.code(), check.outText() + "\n" + diff.outText());
        for (String name : names) assertArrayEquals(files.get(name), Files.readAllBytes(repo.resolve(name)), "--diff wrote " + name);
        ChildCli.Result apply = ChildCli.git(repo, "apply", patch.toString());
        assertEquals(0, apply.code(), apply.outText());

        ChildCli.Result fix = ChildCli.run(fixed, concat(new String[] {"fix", "--torch-version", "2.10"}, names));
        assertEquals(0, fix.code(), fix.outText() + fix.err());
        for (String name : names) {
            byte[] written = Files.readAllBytes(fixed.resolve(name));
            assertFalse(java.util.Arrays.equals(files.get(name), written), name + " was not fixed");
            assertArrayEquals(written, Files.readAllBytes(repo.resolve(name)), name + ": git apply of the diff differs from fix");
        }
    }

    /** A path given as ./m.py is named m.py: git refuses "a/./m.py" as an invalid path. */
    @Test
    void aDotSlashPathIsNamedAsGitNamesIt(@TempDir Path repo) throws Exception {
        assertEquals(0, ChildCli.git(repo, "init", "-q").code());
        Files.write(repo.resolve("lf.py"), PRINTS.getBytes(StandardCharsets.UTF_8));
        ChildCli.Result diff = ChildCli.run(repo, "fix", "--diff", "./lf.py");
        Path patch = Files.write(repo.resolve("fix.diff"), diff.out());
        ChildCli.Result check = ChildCli.git(repo, "apply", "--check", patch.toString());
        assertEquals(0, check.code(), check.outText() + "\n" + diff.outText());
    }

    private static String[] concat(String[] a, List<String> b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.size());
        for (int i = 0; i < b.size(); i++) out[a.length + i] = b.get(i);
        return out;
    }
}
