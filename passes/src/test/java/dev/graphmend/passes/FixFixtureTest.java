package dev.graphmend.passes;

import dev.graphmend.passes.model.Diagnostic;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.ir.document.PythonDocument;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.FixAll;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Before/after fix fixtures (ruff style, src/test/resources/fixes): fix-all of {@code X.py}
 * must give exactly {@code X.fixed.py}; applying it again changes nothing; the result parses.
 * A line marked {@code # expect-decline: GM101 <reason>} must keep its diagnostic with no safe
 * fix and a noFixReason containing the reason; every other GM101/GM102/GM103 diagnostic must be
 * offered a fix. Run with {@code -Dgraphmend.updateFixtures=true} to rewrite the .fixed.py
 * files (then review the diff).
 */
class FixFixtureTest {
    static final Path DIR = Paths.get("src/test/resources/fixes");
    private static final Pattern DECLINE = Pattern.compile("#\\s*expect-decline:\\s*(GM\\d{3})\\s+(.*)$");
    private static final Pattern EXPECT_FIX = Pattern.compile("#\\s*expect-fix:\\s*(GM\\d{3})\\b\\s*(unsafe)?");

    static List<Path> befores() {
        try (Stream<Path> s = Files.list(DIR)) {
            return s.filter(p -> p.toString().endsWith(".py") && !p.toString().endsWith(".fixed.py")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path fixedOf(Path before) {
        String n = before.getFileName().toString();
        return before.resolveSibling(n.substring(0, n.length() - 3) + ".fixed.py");
    }

    @TestFactory
    Stream<DynamicTest> fixAllGivesTheExpectedFile() {
        boolean update = Boolean.getBoolean("graphmend.updateFixtures");
        return befores().stream().map(before -> DynamicTest.dynamicTest(before.getFileName().toString(), () -> {
            String text = Files.readString(before, StandardCharsets.UTF_8);
            AnalysisConfig config = Fixtures.config(before);
            FixAll.Result r = FixAll.apply(before, text, config, List.of());
            Path expectedFile = fixedOf(before);
            if (update) Files.writeString(expectedFile, r.text(), StandardCharsets.UTF_8);
            assertTrue(Files.exists(expectedFile), "no " + expectedFile.getFileName() + " (run with -Dgraphmend.updateFixtures=true)");
            String expected = Files.readString(expectedFile, StandardCharsets.UTF_8);
            assertTrue(expected.equals(r.text()), "fix-all of " + before.getFileName() + " differs from " + expectedFile.getFileName()
                    + ":\n" + firstDifference(expected, r.text()));
            assertTrue(PythonDocument.open(r.text(), 0).errors().isEmpty(), "the fixed file does not parse");
            FixAll.Result again = FixAll.apply(before, r.text(), config, List.of());
            assertTrue(again.text().equals(r.text()), "applying the fixes twice changes the file:\n"
                    + firstDifference(r.text(), again.text()));
        }));
    }

    @TestFactory
    Stream<DynamicTest> declinesAreMarkedAndEverythingElseIsOffered() {
        return befores().stream().map(before -> DynamicTest.dynamicTest(before.getFileName().toString(), () -> {
            List<String> lines = Fixtures.lines(before);
            Map<Integer, String[]> declines = new TreeMap<>();
            Map<Integer, String[]> fixes = new TreeMap<>(); // line → code, the safety the marker asks for
            String[] openString = new String[1]; // a triple-quoted string open across lines (docstrings)
            for (int i = 0; i < lines.size(); i++) {
                boolean inString = openString[0] != null;
                int hash = dev.graphmend.passes.analysis.Suppressions.commentStart(lines.get(i), openString);
                if (inString) continue;
                if (hash <= 0 || lines.get(i).substring(0, hash).isBlank()) continue; // markers sit after code
                Matcher m = DECLINE.matcher(lines.get(i).substring(hash));
                if (m.find()) declines.put(i + 1, new String[] {m.group(1), m.group(2).trim()});
                Matcher fx = EXPECT_FIX.matcher(lines.get(i).substring(hash));
                if (fx.find()) fixes.put(i + 1, new String[] {fx.group(1), fx.group(2) == null ? "safe" : "unsafe"});
            }
            SourceModule m = ProjectLoader.module(before, before.toString(), String.join("\n", lines) + "\n");
            List<Diagnostic> ds = Analyzer.analyze(new Project(List.of(m), Fixtures.config(before))).get(m);
            List<String> problems = new ArrayList<>();
            for (var e : declines.entrySet()) {
                Diagnostic d = ds.stream().filter(x -> x.span().line() == e.getKey() && x.code().equals(e.getValue()[0]))
                        .findFirst().orElse(null);
                if (d == null) problems.add(e.getKey() + ": expected a declined " + e.getValue()[0] + ", found no diagnostic");
                else if (d.fixes().stream().anyMatch(f -> f.safety().isSafe())) {
                    problems.add(e.getKey() + ": expected a decline, got safe fix " + d.fixes().get(0).title());
                }
                else if (d.noFixReason() == null || !d.noFixReason().contains(e.getValue()[1])) {
                    problems.add(e.getKey() + ": decline reason '" + d.noFixReason() + "' does not contain '" + e.getValue()[1] + "'");
                }
            }
            List<String> fixedLines = Files.exists(fixedOf(before)) ? Fixtures.lines(fixedOf(before)) : List.of();
            for (var e : fixes.entrySet()) {
                boolean offered = ds.stream().anyMatch(x -> x.span().line() == e.getKey() && x.code().equals(e.getValue()[0])
                        && x.fixes().stream().anyMatch(f -> e.getValue()[1].equals("unsafe") || f.safety().isSafe()));
                // or fix-all rewrites the line in a later round (a module-wide fix that needs an earlier one first)
                String code = lines.get(e.getKey() - 1).strip();
                boolean rewritten = lines.stream().filter(l -> l.strip().equals(code)).count()
                        > fixedLines.stream().filter(l -> l.strip().equals(code)).count();
                if (!offered && !(rewritten && e.getValue()[1].equals("safe") && !Fixtures.config(before).unsafeFixes())) {
                    problems.add(e.getKey() + ": expected a " + e.getValue()[1] + " " + e.getValue()[0] + " fix, none offered: "
                            + ds.stream().filter(x -> x.span().line() == e.getKey()).map(Diagnostic::noFixReason).toList());
                }
            }
            for (Diagnostic d : ds) {
                boolean fixable = d.code().equals("GM101") || d.code().equals("GM102") || d.code().equals("GM103");
                if (fixable && !declines.containsKey(d.span().line()) && d.fixes().isEmpty()) {
                    problems.add(d.span().line() + ": " + d.code() + " got no fix: " + d.noFixReason() + "   | "
                            + lines.get(d.span().line() - 1).strip());
                }
            }
            assertTrue(problems.isEmpty(), String.join("\n", problems));
        }));
    }

    @Test
    void atLeast120Pairs() {
        int cases = 0;
        for (Path p : befores()) cases += Fixtures.cases(p).size();
        System.out.println("fix fixture cases: " + cases);
        assertTrue(cases >= 120, "need at least 120 before/after cases, have " + cases);
    }

    private static String firstDifference(String a, String b) {
        String[] x = a.split("\n", -1), y = b.split("\n", -1);
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            String l = i < x.length ? x[i] : "<end>", r = i < y.length ? y[i] : "<end>";
            if (!l.equals(r)) return "line " + (i + 1) + ":\n  expected: " + l + "\n  actual:   " + r;
        }
        return "(same lines)";
    }
}
