package dev.graphmend.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.cli.CheckCommandTest.Run;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 40, finding 4: {@code fix} wrote through a link met in a walk to a file outside the tree,
 * fixed a file twice through a link inside it (the second write refused: "changed since it was
 * read"), and split hard links (the rename gave one name a new inode). The policy (docs/cli.md):
 * a walk does not follow a link to a file; a link named is followed and its target rewritten;
 * a file of several hard links is rewritten in place.
 */
class LinkedFilesTest {
    private static final String PRINTS = "import torch\n\n@torch.compile\ndef f(x):\n    y = x * 2\n    print('hi', y)\n    return y\n";
    private static final String FIXED_CALL = "torch._higher_order_ops.print(";

    @Test
    void aLinkInsideTheTreeIsLeftToItsTarget(@TempDir Path dir) throws Exception {
        Path tree = Files.createDirectory(dir.resolve("tree"));
        Path real = Files.writeString(tree.resolve("real.py"), PRINTS);
        Path link = Files.createSymbolicLink(tree.resolve("link.py"), real.getFileName());
        Run r = CheckCommandTest.run("fix", tree.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("Fixed 1 diagnostic in 1 file"), r.out());
        assertFalse(r.out().contains("link.py") || r.err().contains("link.py"), r.out() + r.err());
        assertTrue(Files.readString(real).contains(FIXED_CALL));
        assertTrue(Files.isSymbolicLink(link));
    }

    @Test
    void aLinkOutOfTheTreeIsNotFollowedButANamedLinkIs(@TempDir Path dir) throws Exception {
        Path tree = Files.createDirectory(dir.resolve("tree")), outside = Files.createDirectory(dir.resolve("outside"));
        Path target = Files.writeString(outside.resolve("o.py"), PRINTS);
        Path link = Files.createSymbolicLink(tree.resolve("out.py"), target);
        Files.writeString(tree.resolve("ok.py"), "x = 1\n");
        Run walked = CheckCommandTest.run("fix", tree.toString());
        assertEquals(0, walked.code(), walked.out() + walked.err());
        assertTrue(walked.err().contains(link + ": skipped: a symbolic link to a file outside the paths given ("
                + target.toRealPath() + "): not followed"), walked.err());
        assertEquals(PRINTS, Files.readString(target));
        // a walk of both folders: the target is fixed under its own name, the link left to it
        Run both = CheckCommandTest.run("fix", tree.toString(), outside.toString());
        assertEquals(0, both.code(), both.out() + both.err());
        assertTrue(both.out().contains(target + ":6: GM102 fixed") && !both.out().contains("out.py"), both.out());
        Files.writeString(target, PRINTS);
        // named, the link is followed: its target is rewritten, the link stays a link
        Run named = CheckCommandTest.run("fix", link.toString());
        assertEquals(0, named.code(), named.out() + named.err());
        assertTrue(Files.readString(target).contains(FIXED_CALL));
        assertTrue(Files.isSymbolicLink(link));
    }

    @Test
    void aHardLinkedFileKeepsItsInodeAndEveryName(@TempDir Path dir) throws Exception {
        Path tree = Files.createDirectory(dir.resolve("tree"));
        Path file = Files.writeString(tree.resolve("m.py"), PRINTS);
        Path other = Files.createLink(dir.resolve("other_name.py"), file);
        Object inode = Files.getAttribute(file, "unix:ino", LinkOption.NOFOLLOW_LINKS);
        Run r = CheckCommandTest.run("fix", tree.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertEquals(inode, Files.getAttribute(file, "unix:ino", LinkOption.NOFOLLOW_LINKS));
        assertEquals(2, SafeWrite.hardLinks(file));
        assertTrue(Files.readString(other).contains(FIXED_CALL), Files.readString(other));
        assertEquals(Files.readString(file), Files.readString(other));
        try (var leftovers = Files.list(tree)) {
            assertEquals(1, leftovers.count(), "no temporary file is left behind");
        }
    }
}
