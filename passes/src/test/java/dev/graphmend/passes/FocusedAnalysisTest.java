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
