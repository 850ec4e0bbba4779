package dev.graphmend.passes;

import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import java.util.List;

/**
 * The engine's front door for a long-lived caller (the language server): it keeps the last
 * project it built, so that the project of the next version is built from it ({@link
 * Project#next}: classes of unchanged files are kept with what was inferred of them, resolved
 * names too), and analyses one module of it, reusing the module's {@link AnalysisMemo}.
 * Thread-safe: analyses may come from several threads; each gets a consistent project.
 */
public final class AnalysisHost {
    private Project last; // guarded by this

    /** The project of these modules, built from the last one. */
    public synchronized Project project(List<SourceModule> modules, AnalysisConfig config) {
        Project p = last == null ? new Project(modules, config) : Project.next(last, modules, config);
        last = p;
        return p;
    }

    /** Forgets the last project (the workspace was re-indexed, or memory is wanted back). */
    public synchronized void forget() {
        last = null;
    }
}
