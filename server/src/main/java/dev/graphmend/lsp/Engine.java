package dev.graphmend.lsp;

import dev.graphmend.passes.AnalysisMemo;
import dev.graphmend.passes.Analyzer;
import dev.graphmend.passes.Findings;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.FixAll;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The engine as the server calls it; an interface so tests can slow it down or count calls. */
public interface Engine {
    /**
     * The diagnostics of {@code focus}, a module of the project (the others' lists are empty),
     * reusing what {@code memo} (one per open document) kept of its previous version.
     */
    Findings analyze(Project project, SourceModule focus, AnalysisMemo memo);

    FixAll.Result fixAll(Path file, String text, AnalysisConfig config, List<SourceModule> others);

    Engine DEFAULT = new Engine() {
        @Override
        public Findings analyze(Project project, SourceModule focus, AnalysisMemo memo) {
            return Analyzer.analyze(project, focus, memo);
        }

        @Override
        public FixAll.Result fixAll(Path file, String text, AnalysisConfig config, List<SourceModule> others) {
            return FixAll.apply(file, text, config, others);
        }
    };
}
