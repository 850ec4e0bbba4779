package dev.graphmend.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Error Prone-style fixtures: every {@code # expect: GMxxx} marker must be reported on its line,
 * and nothing else may be. One dynamic test per fixture file; the corpus as a whole must hold at
 * least 150 cases, 40% or more of them negative (issue 4).
 */
class FixtureCorpusTest {

    @TestFactory
    Stream<DynamicTest> eachFixtureFile() {
        return Fixtures.files(false).stream().map(f -> DynamicTest.dynamicTest(Fixtures.DIR.relativize(f).toString(), () -> {
            Map<Integer, TreeSet<String>> expected = Fixtures.expected(f);
            Map<Integer, TreeSet<String>> actual = Fixtures.actual(f);
            List<String> problems = new ArrayList<>();
            TreeSet<Integer> lines = new TreeSet<>(expected.keySet());
            lines.addAll(actual.keySet());
            List<String> text = Fixtures.lines(f);
            for (int line : lines) {
                TreeSet<String> e = expected.getOrDefault(line, new TreeSet<>());
                TreeSet<String> a = actual.getOrDefault(line, new TreeSet<>());
                if (!e.equals(a)) {
                    problems.add(f.getFileName() + ":" + line + ": expected " + e + ", reported " + a + "   | "
                            + text.get(line - 1).strip());
                }
            }
            assertTrue(problems.isEmpty(), problems.size() + " line(s) disagree:\n" + String.join("\n", problems));
        }));
    }

    /**
     * roots.py is checked under "explicit" (its first line); its root forms are roots under the
     * default "module-forward" too: every marker is reported there as well (the forwards that no
     * form compiles add their own diagnostics, as that mode intends).
     */
    @Test
    void rootFormsAreRootsUnderModuleForwardToo() {
        Path f = Fixtures.DIR.resolve("roots.py");
        assertEquals(dev.graphmend.passes.config.AnalysisConfig.AssumeCompiled.EXPLICIT, Fixtures.config(f).assumeCompiled());
        Map<Integer, TreeSet<String>> actual = new java.util.TreeMap<>();
        for (var d : Fixtures.diagnostics(f, dev.graphmend.passes.config.AnalysisConfig.defaults())) {
            actual.computeIfAbsent(d.span().line(), k -> new TreeSet<>()).add(d.code());
        }
        List<String> missing = new ArrayList<>();
        Fixtures.expected(f).forEach((line, codes) -> {
            if (!actual.getOrDefault(line, new TreeSet<>()).containsAll(codes)) missing.add(line + ": " + codes);
        });
        assertTrue(missing.isEmpty(), "markers of roots.py not reported under module-forward: " + missing);
    }

    @Test
    void corpusIsLargeEnoughAndBalanced() throws IOException {
        int cases = 0, negatives = 0;
        StringBuilder table = new StringBuilder("file                       cases positive negative\n");
        for (Path f : Fixtures.files(false)) {
            List<Fixtures.Case> cs = Fixtures.cases(f);
            long neg = cs.stream().filter(c -> !c.positive()).count();
            cases += cs.size();
            negatives += (int) neg;
            table.append(String.format("%-26s %5d %8d %8d%n", Fixtures.DIR.relativize(f), cs.size(), cs.size() - neg, neg));
        }
        table.append(String.format("%-26s %5d %8d %8d%n", "all", cases, cases - negatives, negatives));
        Path out = Paths.get("target/fixture-corpus.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, table);
        System.out.print(table);
        assertTrue(cases >= 150, "the corpus needs at least 150 cases, has " + cases);
        assertTrue(negatives * 10 >= cases * 4, "at least 40% negatives needed: " + negatives + " of " + cases);
    }

    @Test
    void everyRuleHasAFixtureFileWithPositivesAndNegatives() {
        for (var rule : dev.graphmend.passes.registry.RuleRegistry.detected()) {
            Path f = Fixtures.DIR.resolve(rule.info().code() + ".py");
            assertTrue(Files.isRegularFile(f), "no fixture file for " + rule.info().code());
            List<Fixtures.Case> cs = Fixtures.cases(f);
            assertTrue(cs.stream().anyMatch(Fixtures.Case::positive), rule.info().code() + " has no positive case");
            assertTrue(cs.stream().anyMatch(c -> !c.positive()), rule.info().code() + " has no negative case");
            boolean codeUsed = Fixtures.expected(f).values().stream().anyMatch(s -> s.contains(rule.info().code()));
            assertTrue(codeUsed, rule.info().code() + ".py never expects " + rule.info().code());
        }
        assertEquals(8, dev.graphmend.passes.registry.RuleRegistry.detected().size());
    }
}
