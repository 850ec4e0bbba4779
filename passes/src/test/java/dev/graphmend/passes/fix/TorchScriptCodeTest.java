package dev.graphmend.passes.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.passes.Analyzer;
import dev.graphmend.passes.Findings;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.model.Diagnostic;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where TorchScript may compile a function (docs/rules/GM102.md, "TorchScript"): decided per
 * project, from what its modules spell. Not a fix fixture: the cases need two modules.
 */
class TorchScriptCodeTest {
    private static final String MODEL = String.join("\n",
            "import warnings",
            "",
            "import torch",
            "",
            "",
            "class M(torch.nn.Module):",
            "    def forward(self, x):",
            "        warnings.warn(\"deprecated\")",
            "        return x",
            "");

    private static List<String> titles(String other) {
        SourceModule m = ProjectLoader.module(Path.of("model.py"), "model.py", MODEL);
        SourceModule o = ProjectLoader.module(Path.of("other.py"), "other.py", other);
        Findings found = Analyzer.analyze(new Project(List.of(m, o), AnalysisConfig.defaults()));
        assertTrue(found.internalErrors().isEmpty(), found.internalErrors().toString());
        Diagnostic d = found.get(m).stream().filter(x -> x.code().equals("GM102")).findFirst().orElseThrow();
        return d.fixes().stream().map(Diagnostic.Fix::title).toList();
    }

    @Test
    void anotherModuleScriptingMakesTheProjectsModulesScriptable() {
        assertEquals("Warn inside the graph (an ordered custom op)", titles("x = 1\n").get(0));
        String scripts = "import torch\n\n\ndef export(m):\n    return torch.jit.script(m)\n";
        assertTrue(titles(scripts).stream().noneMatch(t -> t.startsWith("Warn inside")), titles(scripts).toString());
        String imported = "from torch.jit import is_scripting\n\n\ndef f():\n    return is_scripting()\n";
        assertTrue(titles(imported).stream().noneMatch(t -> t.startsWith("Warn inside")), titles(imported).toString());
    }

    @Test
    void theCondRewriteDeclinesWhereTorchScriptMayCompile() {
        String model = String.join("\n",
                "import torch",
                "import torch.nn.functional as F",
                "",
                "",
                "class M(torch.nn.Module):",
                "    def __init__(self):",
                "        super().__init__()",
                "        self.proj = torch.nn.Linear(4, 4)",
                "",
                "    def forward(self, x):",
                "        if x.mean() > 0:",
                "            return F.gelu(self.proj(x))",
                "        else:",
                "            return x * 0.5",
                "");
        java.util.function.Function<String, Diagnostic> gm101 = other -> {
            SourceModule m = ProjectLoader.module(Path.of("model.py"), "model.py", model);
            SourceModule o = ProjectLoader.module(Path.of("other.py"), "other.py", other);
            Findings found = Analyzer.analyze(new Project(List.of(m, o), AnalysisConfig.defaults().withUnsafeFixes(true)));
            assertTrue(found.internalErrors().isEmpty(), found.internalErrors().toString());
            return found.get(m).stream().filter(x -> x.code().equals("GM101")).findFirst().orElseThrow();
        };
        Diagnostic plain = gm101.apply("x = 1\n");
        assertTrue(plain.fixes().stream().anyMatch(f -> f.title().contains("torch.cond")), plain.fixes().toString());
        Diagnostic scripted = gm101.apply("import torch\n\n\ndef export(m):\n    return torch.jit.script(m)\n");
        assertTrue(scripted.fixes().stream().noneMatch(f -> f.title().contains("torch.cond")), scripted.fixes().toString());
        assertTrue(String.valueOf(scripted.noFixReason()).contains("not scriptable"), String.valueOf(scripted.noFixReason()));
    }

    @Test
    void aLocalNamedJitIsNotTorchScriptAndDoesNotCrashTheFixes() {
        // the fuzzer's find: a function's local `jit` (idlelib's run.py) made the scan resolve
        // names it should not, and the fixes of the whole project failed with an internal error
        String local = "def run(code):\n    global interruptable\n    interruptable = True\n    jit = code.getvar(\"x\")\n    return jit\n";
        assertEquals("Warn inside the graph (an ordered custom op)", titles(local).get(0));
    }
}
