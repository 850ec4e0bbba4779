package dev.graphmend.passes.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.passes.Analyzer;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.model.Diagnostic;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A module that imports torch only for type checking (transformers' utils do): no fix may add
 * {@code import torch} to it (the module would then need torch), but a function that imports torch
 * itself is rewritten with that torch. Not a fix fixture: such a module cannot hold the fixture's
 * {@code @torch.compile} cases.
 */
class OptionalTorchTest {
    @Test
    void fixesUseAFunctionsOwnTorchAndNeverAddAnImportWhereTorchIsOptional() {
        String text = String.join("\n",
                "from typing import TYPE_CHECKING",
                "",
                "from torch import nn",
                "",
                "if TYPE_CHECKING:",
                "    import torch",
                "",
                "",
                "def check(cond):",
                "    import torch",
                "",
                "    torch._check_tensor_all(cond)",
                "",
                "",
                "def show(x):",
                "    print(\"x\", x)",
                "",
                "",
                "class M(nn.Module):",
                "    def forward(self, x):",
                "        check(x > 0)",
                "        show(x)",
                "        return x",
                "");
        SourceModule m = ProjectLoader.module(Path.of("optional_torch.py"), "optional_torch.py", text);
        AnalysisConfig config = AnalysisConfig.defaults().withUnsafeFixes(true);
        dev.graphmend.passes.Findings found = Analyzer.analyze(new Project(List.of(m), config));
        List<Diagnostic> ds = found.get(m);
        Diagnostic check = ds.stream().filter(d -> d.code().equals("GM201")).findFirst().orElseThrow(() -> new AssertionError(ds.toString()));
        assertFalse(check.fixes().isEmpty(), "the lowering should use check()'s own torch: " + check.noFixReason());
        assertFalse(found.fixesFor(m, check).isEmpty(), "the described fix builds");
        for (Diagnostic.Fix f : found.fixesFor(m, check)) {
            for (Diagnostic.Edit e : f.edits()) assertFalse(e.newText().contains("import torch"), e.newText());
        }
        Diagnostic print = ds.stream().filter(d -> d.code().equals("GM102")).findFirst().orElseThrow(() -> new AssertionError(ds.toString()));
        assertEquals(List.of(), print.fixes());
        assertTrue(print.noFixReason().contains("imports torch only for type checking"), print.noFixReason());
    }
}
