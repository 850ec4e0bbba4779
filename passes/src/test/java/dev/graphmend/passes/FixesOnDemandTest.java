package dev.graphmend.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.model.Diagnostic;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fixes on demand: an analysis only describes each legal fix (title, safety, note) and
 * {@link Findings#fixesFor} builds its edits when asked. On every fix fixture, with unsafe fixes
 * on, the fixes built on demand equal those an analysis that builds every edit gives (each
 * re-parse-checked), and every described fix builds.
 */
class FixesOnDemandTest {
    @Test
    void fixesBuiltOnDemandEqualThoseBuiltUpFront() throws Exception {
        int fixes = 0;
        for (Path before : FixFixtureTest.befores()) {
            String text = Files.readString(before);
            SourceModule m = ProjectLoader.module(before, before.toString(), text);
            AnalysisConfig config = Fixtures.config(before).withUnsafeFixes(true);
            Project project = new Project(List.of(m), config);
            Findings described = Analyzer.analyze(project, m, null, false);
            Findings built = Analyzer.analyze(project, m, null, true);
            List<Diagnostic> ds = described.get(m), bs = built.get(m);
            assertEquals(bs.size(), ds.size(), before.toString());
            for (int i = 0; i < ds.size(); i++) {
                Diagnostic d = ds.get(i), b = bs.get(i);
                assertEquals(b.span(), d.span(), before + ": " + d);
                assertEquals(b.fixes().stream().map(Diagnostic.Fix::title).toList(),
                        d.fixes().stream().map(Diagnostic.Fix::title).toList(), before + ": " + d);
                for (Diagnostic.Fix f : d.fixes()) assertFalse(f.hasEdits(), "described only: " + before + ": " + f.title());
                List<Diagnostic.Fix> onDemand = described.fixesFor(m, d);
                assertEquals(built.fixesFor(m, b), onDemand, before + ": " + d);
                assertEquals(d.fixes().size(), onDemand.size(), "every described fix builds and re-parses: " + before + ": " + d);
                fixes += onDemand.size();
            }
        }
        assertTrue(fixes > 50, "the fixtures offer fixes (" + fixes + ")");
    }
}
