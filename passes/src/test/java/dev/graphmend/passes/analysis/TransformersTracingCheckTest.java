package dev.graphmend.passes.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.graphmend.passes.Analyzer;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.config.AnalysisConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * transformers 5.x checks tensors with {@code torch_compilable_check}, which under
 * {@code is_tracing()} calls {@code torch._check_tensor_all}: that reads the condition with
 * {@code .item()} and breaks the graph (GB0124; Grounding DINO on transformers 5.24.0). The
 * model imports the helper through {@code transformers.utils}'s re-export; the code after
 * {@code if is_tracing(): ... return} does not run while Dynamo traces. A package on disk, not
 * a fixture, because the helper must live in {@code transformers.utils}.
 */
class TransformersTracingCheckTest {
    private static final String IMPORT_UTILS = String.join("\n",
            "import torch",
            "",
            "def is_torchdynamo_compiling():",
            "    return torch.compiler.is_compiling()",
            "",
            "def is_tracing(tensor=None):",
            "    return is_torchdynamo_compiling()",
            "",
            "def torch_compilable_check(cond, msg, error_type=ValueError):",
            "    if is_tracing():",
            "        if isinstance(cond, torch.Tensor):",
            "            torch._check_tensor_all(cond)",                           // 12: what breaks
            "        else:",
            "            torch._check(cond)",
            "        return",
            "    torch._check_tensor_all_with(error_type, cond, lambda: msg)",   // 16: not run under Dynamo
            "",
            "def scale_if_traced(x):",
            "    if not is_tracing(x):",
            "        print('eager')",                                           // 20: skipped while tracing
            "    return x * 2",
            "");
    private static final String MODEL = String.join("\n",
            "import torch",
            "from torch import nn",
            "from ...utils import scale_if_traced, torch_compilable_check",
            "",
            "class Attention(nn.Module):",
            "    def forward(self, hidden, spatial_shapes):",
            "        torch_compilable_check((spatial_shapes[:, 0] * spatial_shapes[:, 1]).sum() == hidden.shape[1], 'bad')",
            "        return scale_if_traced(hidden)",
            "");

    @Test
    void theHelpersTensorCheckIsReportedAndTheEagerPathIsNot(@TempDir Path dir) throws IOException {
        Map<String, String> files = new TreeMap<>(Map.of(
                "transformers/__init__.py", "",
                "transformers/utils/__init__.py", "from .import_utils import is_tracing, scale_if_traced, torch_compilable_check\n",
                "transformers/utils/import_utils.py", IMPORT_UTILS,
                "transformers/models/__init__.py", "",
                "transformers/models/demo/__init__.py", "",
                "transformers/models/demo/modeling_demo.py", MODEL));
        List<ProjectLoader.Input> inputs = new ArrayList<>();
        for (var e : files.entrySet()) {
            Path p = dir.resolve(e.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, e.getValue());
            inputs.add(new ProjectLoader.Input(p, e.getKey()));
        }
        ProjectLoader.Loaded loaded = ProjectLoader.load(inputs, AnalysisConfig.defaults());
        assertEquals(List.of(), loaded.problems());
        String found = Analyzer.analyze(loaded.project()).entrySet().stream()
                .flatMap(e -> e.getValue().stream().map(d -> e.getKey().path() + ":" + d.span().line() + " " + d.code()))
                .sorted().collect(Collectors.joining("\n"));
        assertEquals("transformers/utils/import_utils.py:12 GM201", found);
    }
}
