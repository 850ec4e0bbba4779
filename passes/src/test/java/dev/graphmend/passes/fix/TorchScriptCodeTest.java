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
    void aLocalNamedJitIsNotTorchScriptAndDoesNotCrashTheFixes() {
        // the fuzzer's find: a function's local `jit` (idlelib's run.py) made the scan resolve
        // names it should not, and the fixes of the whole project failed with an internal error
        String local = "def run(code):\n    global interruptable\n    interruptable = True\n    jit = code.getvar(\"x\")\n    return jit\n";
        assertEquals("Warn inside the graph (an ordered custom op)", titles(local).get(0));
    }
}
