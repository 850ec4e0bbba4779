package dev.graphmend.passes.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.passes.Analyzer;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.config.AnalysisConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A condition whose static part Dynamo decides while tracing breaks only in the configurations
 * where that part lets the tensor part run (layerdrop in training, an fp16 overflow check): the
 * message says when, so a user who sees no break in eval or fp32 knows why.
 */
class ConditionalBreakMessageTest {
    private static final String MODEL = String.join("\n",
            "import torch",
            "from torch import nn",
            "",
            "class Layer(nn.Module):",
            "    def forward(self, x):",
            "        if self.training and torch.rand([]) < 0.1:",
            "            return x",
            "        if x.dtype == torch.float16 and torch.isinf(x).any():",
            "            x = x.clamp(-1, 1)",
            "        if x.sum() > 0:",
            "            x = x * 2",
            "        return x",
            "",
            "class Gated(nn.Module):",
            "    def forward(self, x, a=None, b=None, a_mask=None, b_mask=None):",
            "        if (a is not None and a_mask.any()) or (b is not None and b_mask.any()):",
            "            x = x + 1",
            "        skip = False",
            "        if self.training:",
            "            skip = torch.rand([]) < 0.5",
            "        if not skip:",
            "            x = x * 2",
            "        return x",
            "");

    @Test
    void theMessageSaysWhenTheBreakHappens(@TempDir Path dir) throws IOException {
        Path p = dir.resolve("model.py");
        Files.writeString(p, MODEL);
        ProjectLoader.Loaded loaded = ProjectLoader.load(List.of(new ProjectLoader.Input(p, "model.py")), AnalysisConfig.defaults());
        List<Diagnostic> found = Analyzer.analyze(loaded.project()).values().stream().flatMap(List::stream)
                .sorted(java.util.Comparator.comparingInt(d -> d.span().line())).collect(Collectors.toList());
        assertEquals(List.of(6, 8, 10, 16, 21), found.stream().map(d -> d.span().line()).collect(Collectors.toList()));
        assertTrue(found.get(0).message().endsWith("It breaks only when `self.training` is true (Dynamo decides that part while tracing)."),
                found.get(0).message());
        assertTrue(found.get(1).message().contains("only when `x.dtype == torch.float16` is true"), found.get(1).message());
        assertFalse(found.get(2).message().contains("only when"), found.get(2).message());
        // each tensor test guarded by a static one: the guards, joined as Python reads them
        assertTrue(found.get(3).message().contains("only when `a is not None or b is not None` is true"), found.get(3).message());
        // a flag that is a tensor on one path only: which assignment makes it one
        assertTrue(found.get(4).message().endsWith("`skip` holds a tensor only after the assignment on line 20; "
                + "elsewhere it is a Python value."), found.get(4).message());
    }
}
