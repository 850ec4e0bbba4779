package dev.graphmend.passes;

import dev.graphmend.passes.model.Diagnostic;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The language server analyses one module at a time ({@link Analyzer#analyze(Project, SourceModule)}),
 * discovering compile regions only from the modules that can reach it. Its diagnostics must be
 * exactly those of the whole project's analysis, on projects whose roots cross files.
 */
class FocusedAnalysisTest {

    @Test
    void examplesProjectFocusedEqualsWhole() throws IOException {
        assertFocusedEqualsWhole(Paths.get("../examples"), 3);
    }

    @Test
    void fixtureCorpusFocusedEqualsWhole() throws IOException {
        assertFocusedEqualsWhole(Fixtures.DIR, 7);
    }

    @Test
    void crossFileRootReachesAnImportedModuleOnly() {
        SourceModule model = ProjectLoader.module(Path.of("pkg/model.py"), "pkg/model.py", """
                import torch

                def helper(x):
                    if x.sum() > 0:
                        return x
                    return -x
                """);
        SourceModule train = ProjectLoader.module(Path.of("pkg/train.py"), "pkg/train.py", """
                import torch
                from model import helper

                @torch.compile
                def step(x):
                    return helper(x)
                """);
        SourceModule other = ProjectLoader.module(Path.of("pkg/other.py"), "pkg/other.py", """
                def helper(x):
                    return x
                """);
        Project p = new Project(List.of(model, train, other), AnalysisConfig.defaults());
        assertEquals(Set.of(model, train), Set.copyOf(p.modulesReaching(model)));
        List<Diagnostic> focused = Analyzer.analyze(p, model).get(model);
        assertEquals(1, focused.size(), "the branch in helper, reached from train.step: " + focused);
        assertEquals(Analyzer.analyze(p).get(model), focused);
    }

    /**
     * Root forms of docs/compile-regions.md written in another file than the code they compile,
     * under assume-compiled = "explicit": a module chain assigned to a local, a method of that
     * instance, and a functools.partial binding a literal (not a tensor: its branch is static).
     */
    @Test
    void rootFormsInAnotherFileReachTheFocus() {
        SourceModule model = ProjectLoader.module(Path.of("pkg/model.py"), "pkg/model.py", """
                import torch
                from torch import nn

                class Net(nn.Module):
                    def forward(self, x):
                        print("net")
                        return x

                    def step(self, x):
                        if x.sum() > 0:
                            return x
                        return -x

                    def generate(self, x):
                        print("eager")
                        return self(x)

                def decode(x, k):
                    if k > 1:
                        x = x * k
                    return x.sum().item()
                """);
        SourceModule train = ProjectLoader.module(Path.of("pkg/train.py"), "pkg/train.py", """
                import functools
                import torch
                from model import Net, decode

                def main(device="cpu"):
                    model = Net().to(device).eval()
                    cm = torch.compile(model)
                    step = torch.compile(model.step)
                    dec = torch.compile(functools.partial(decode, k=2))
                    return cm.generate(torch.ones(2)), step, dec
                """);
        AnalysisConfig explicit = AnalysisConfig.defaults().withAssumeCompiled(AnalysisConfig.AssumeCompiled.EXPLICIT);
        Project p = new Project(List.of(model, train), explicit);
        List<Diagnostic> focused = Analyzer.analyze(p, model).get(model);
        assertEquals(Analyzer.analyze(p).get(model), focused);
        Set<Integer> lines = new java.util.TreeSet<>();
        for (Diagnostic d : focused) lines.add(d.span().line());
        assertEquals(Set.of(6, 10, 21), lines, "forward's print, step's branch, decode's item(); not generate, not `if k > 1`: " + focused);
    }

    @org.junit.jupiter.api.io.TempDir
    Path tmp;

    /**
     * A package as transformers lays one out: the model re-exported through star imports and an
     * explicit import in the top-level package, a script that compiles it by the re-exported name,
     * a script that compiles it through the module object, and modules that import the package
     * but name nothing of the model (one has a `logger` of its own, as the model has).
     */
    @Test
    void reachingModulesFollowReExportsAndSkipModulesThatNameNothingOfTheFocus() throws IOException {
        java.util.Map<String, String> files = new java.util.LinkedHashMap<>();
        files.put("pkg/__init__.py", "from .models import *\nfrom .models.enc.modeling_enc import Encoder as Encoder\n");
        files.put("pkg/models/__init__.py", "from .enc import *\n");
        files.put("pkg/models/enc/__init__.py", "from .modeling_enc import *\n");
        files.put("pkg/models/enc/modeling_enc.py", String.join("\n", "import logging", "import torch", "import torch.nn as nn",
                "", "logger = logging.getLogger(__name__)", "", "", "class Encoder(nn.Module):", "    def forward(self, x):",
                "        if x.sum() > 0:", "            x = x * 2", "        return helper(x)", "", "", "def helper(x):",
                "    print(x)", "    return x", ""));
        files.put("pkg/train.py", String.join("\n", "import torch", "from pkg import Encoder", "", "",
                "def run(x):", "    model = torch.compile(Encoder())", "    return model(x)", ""));
        files.put("pkg/script.py", String.join("\n", "import torch", "from pkg.models.enc import modeling_enc", "", "",
                "@torch.compile", "def step(x):", "    return modeling_enc.helper(x)", ""));
        files.put("pkg/util.py", String.join("\n", "import logging", "import pkg", "", "logger = logging.getLogger(__name__)",
                "", "", "@torch.compile", "def other(x):", "    logger.info(\"x\")", "    return x", ""));
        List<SourceModule> modules = new java.util.ArrayList<>();
        for (var e : files.entrySet()) {
            Path f = tmp.resolve(e.getKey());
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.getValue());
        }
        for (var e : files.entrySet()) {
            Path f = tmp.resolve(e.getKey());
            modules.add(ProjectLoader.module(f, e.getKey(), e.getValue()));
        }
        Project p = new Project(modules, AnalysisConfig.defaults());
        SourceModule enc = modules.get(3);
        Set<String> reaching = new java.util.TreeSet<>();
        for (SourceModule m : p.modulesReaching(enc)) reaching.add(m.path());
        assertEquals(new java.util.TreeSet<>(List.of("pkg/__init__.py", "pkg/models/__init__.py", "pkg/models/enc/__init__.py",
                "pkg/models/enc/modeling_enc.py", "pkg/train.py", "pkg/script.py")), reaching);
        List<Diagnostic> focused = Analyzer.analyze(p, enc).get(enc);
        assertEquals(Analyzer.analyze(p).get(enc), focused);
        assertTrue(focused.size() >= 2, "the branch, reached from train.run, and the print, from script.step: " + focused);
    }

    private static void assertFocusedEqualsWhole(Path dir, int minDiagnosticFiles) throws IOException {
        List<ProjectLoader.Input> inputs;
        try (Stream<Path> s = Files.walk(dir)) {
            inputs = s.filter(f -> f.toString().endsWith(".py")).sorted()
                    .map(f -> new ProjectLoader.Input(f, f.toString())).toList();
        }
        Project project = ProjectLoader.load(inputs, AnalysisConfig.defaults()).project();
        Map<SourceModule, List<Diagnostic>> whole = Analyzer.analyze(project);
        int withDiagnostics = 0;
        for (SourceModule m : project.modules()) {
            List<Diagnostic> focused = Analyzer.analyze(project, m).get(m);
            assertEquals(whole.get(m), focused, "focused analysis of " + m.path() + " differs from the whole project's");
            if (!focused.isEmpty()) withDiagnostics++;
        }
        assertTrue(withDiagnostics >= minDiagnosticFiles, "only " + withDiagnostics + " files with diagnostics in " + dir);
    }
}
