package dev.graphmend.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.cli.CheckCommandTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code graphmend fix}: what it rewrites, across files, and what it leaves alone. */
class FixCommandTest {
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
    }
}
