package dev.graphmend.passes.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.graphmend.passes.Analyzer;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.config.AnalysisConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A forward decorated by a project decorator runs as the decorator's nested wrapper, so the
 * wrapper's code is compiled too (transformers' {@code @dynamic_rope_update}, whose frequency
 * update branches on {@code torch.max(position_ids) + 1}: Phi-3's break in the evaluation).
 * Not a fixture for the Dynamo oracle because the decorator must be defined before the case
 * that uses it, outside the case's block; Dynamo's break at that line was seen in the evaluation.
 */
class DecoratorWrapperTest {
    private static final String SOURCE = String.join("\n",
            "import torch",
            "from torch import nn",
            "",
            "def dynamic_update(rope_forward):",
            "    def frequency_update(self, position_ids):",
            "        seq_len = torch.max(position_ids) + 1",
            "        if seq_len > self.limit:",                        // 7: a data-dependent branch
            "            self.scale = 2.0",
            "",
            "    def wrapper(self, x, position_ids):",
            "        frequency_update(self, position_ids)",
            "        return rope_forward(self, x, position_ids)",
            "",
            "    return wrapper",
            "",
            "def factory(n):",
            "    def deco(fn):",
            "        def inner(self, x, position_ids):",
            "            if x.sum() > n:",                              // 19: behind a decorator factory: not followed
            "                print('big')",
            "            return fn(self, x, position_ids)",
            "        return inner",
            "    return deco",
            "",
            "class Rotary(nn.Module):",
            "    def __init__(self):",
            "        super().__init__()",
            "        self.limit = 8",
            "        self.scale = 1.0",
            "",
            "    @dynamic_update",
            "    def forward(self, x, position_ids):",
            "        return x * self.scale",
            "",
            "class Other(nn.Module):",
            "    @factory(3)",
            "    def forward(self, x, position_ids):",
            "        return x",
            "");

    @Test
    void theWrapperOfADecoratedForwardIsCompiled() {
        SourceModule m = ProjectLoader.module(Path.of("rope.py"), "rope.py", SOURCE);
        List<Diagnostic> found = Analyzer.analyze(new Project(List.of(m), AnalysisConfig.defaults())).get(m);
        String lines = found.stream().map(d -> d.code() + "@" + d.span().line()).collect(Collectors.joining(" "));
        assertEquals("GM101@7", lines);
    }
}
