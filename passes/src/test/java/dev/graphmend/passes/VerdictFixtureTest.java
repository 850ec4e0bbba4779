package dev.graphmend.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The per-root, per-mode full-graph verdict against the {@code # expect-verdict: MODE one graph|breaks}
 * markers of the runnable fixtures (fixtures/README.md), which the Dynamo oracle checks in turn by
 * calling each marked root alone.
 */
class VerdictFixtureTest {
    private static final Pattern VERDICT = Pattern.compile("#\\s*expect-verdict:\\s*(eval|train)\\s+(one graph|breaks)\\s*$");

    /** 1-based line → {mode, verdict}. */
    static Map<Integer, String[]> markers(Path file) {
        Map<Integer, String[]> out = new TreeMap<>();
        List<String> ls = Fixtures.lines(file);
        for (int i = 0; i < ls.size(); i++) {
            Matcher m = VERDICT.matcher(ls.get(i));
            if (m.find()) out.put(i + 1, new String[] {m.group(1), m.group(2)});
        }
        return out;
    }

    @Test
    void everyMarkedRootHasTheVerdictItsMarkerSaysInItsMode() {
        int checked = 0;
        List<String> wrong = new ArrayList<>();
        for (Path file : Fixtures.files(true)) {
            Map<Integer, String[]> marks = markers(file);
            if (marks.isEmpty()) continue;
            SourceModule m = ProjectLoader.module(file, file.toString(), String.join("\n", Fixtures.lines(file)) + "\n");
            var config = Fixtures.config(file);
            Findings found = Analyzer.analyze(new Project(List.of(m), config));
            Map<Integer, FullGraphReadiness.Root> byLine = new TreeMap<>();
            for (var r : FullGraphReadiness.of(found, found.attribution(), config, true)) byLine.put(r.root().line(), r); // 1-based, as the markers
            for (var e : marks.entrySet()) {
                checked++;
                FullGraphReadiness.Root r = byLine.get(e.getKey());
                String where = file.getFileName() + ":" + e.getKey();
                if (r == null) {
                    wrong.add(where + ": no compile root on this line (roots at " + byLine.keySet() + ")");
                    continue;
                }
                boolean train = e.getValue()[0].equals("train");
                FullGraphReadiness.Counts c = train ? r.train() : r.eval();
                if (c == null || (r.modes() & (train ? dev.graphmend.passes.analysis.Modes.TRAIN : dev.graphmend.passes.analysis.Modes.EVAL)) == 0) {
                    wrong.add(where + ": the root is not compiled in " + e.getValue()[0] + " mode: " + r.sentence());
                    continue;
                }
                // each marked root is compiled in one known mode: the other mode has no counts
                if ((train ? r.eval() : r.train()) != null) wrong.add(where + ": the mode is not known: " + r.sentence());
                String said = c.breaks() == 0 ? "one graph" : "breaks";
                if (!said.equals(e.getValue()[1])) wrong.add(where + ": marker says " + e.getValue()[1] + ", we say " + r.sentence());
            }
        }
        assertTrue(checked >= 14, "verdict markers found: " + checked);
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    @Test
    void verdictMarkersCoverBothModesAndBothVerdicts() {
        Map<String, Integer> kinds = new TreeMap<>();
        for (Path file : Fixtures.files(true)) {
            for (String[] v : markers(file).values()) kinds.merge(v[0] + " " + v[1], 1, Integer::sum);
        }
        assertEquals(4, kinds.size(), kinds.toString());
        assertFalse(kinds.values().stream().anyMatch(n -> n < 2), kinds.toString());
        assertNotNull(kinds.get("eval one graph"));
    }
}
