package dev.graphmend.passes;

import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.config.ConfigFile;
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
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The rule fixture corpus (src/test/resources/fixtures, see its README): files, markers, cases, our findings. */
final class Fixtures {
    static final Path DIR = Paths.get("src/test/resources/fixtures");
    private static final Pattern EXPECT = Pattern.compile("#\\s*expect:\\s*([A-Z0-9, ]+)");
    private static final Pattern CONFIG = Pattern.compile("^#\\s*config:\\s*(.*)$");
    private static final Pattern CASE = Pattern.compile("^(?:def|class)\\s+(case_\\w+|Case\\w+)");

    private Fixtures() {}

    /** Every fixture file, sorted; {@code runnable} ones are those the Dynamo oracle runs. */
    static List<Path> files(boolean runnableOnly) {
        try (Stream<Path> s = Files.walk(DIR)) {
            return s.filter(p -> p.toString().endsWith(".py"))
                    .filter(p -> !runnableOnly || p.getParent().equals(DIR))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** 1-based line → the codes its {@code # expect:} marker lists. */
    static Map<Integer, TreeSet<String>> expected(Path file) {
        Map<Integer, TreeSet<String>> m = new TreeMap<>();
        List<String> ls = lines(file);
        for (int i = 0; i < ls.size(); i++) {
            Matcher x = EXPECT.matcher(ls.get(i));
            if (!x.find()) continue;
            TreeSet<String> codes = new TreeSet<>();
            for (String c : x.group(1).split("[,\\s]+")) if (!c.isBlank()) codes.add(c.trim());
            m.put(i + 1, codes);
        }
        return m;
    }

    /** The configuration a fixture's first-line {@code # config:} comment sets. */
    static AnalysisConfig config(Path file) {
        List<String> ls = lines(file);
        if (ls.isEmpty()) return AnalysisConfig.defaults();
        Matcher m = CONFIG.matcher(ls.get(0));
        if (!m.find()) return AnalysisConfig.defaults();
        try {
            List<String> warnings = new java.util.ArrayList<>();
            AnalysisConfig c = ConfigFile.fromToml(m.group(1).replace(";", "\n"), AnalysisConfig.defaults(), file.toString(), warnings);
            if (!warnings.isEmpty()) throw new IllegalStateException("a fixture's configuration line: " + warnings);
            return c;
        } catch (ConfigFile.ConfigException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** What our analysis reports in one fixture file: 1-based line → codes. */
    static Map<Integer, TreeSet<String>> actual(Path file) {
        Map<Integer, TreeSet<String>> out = new TreeMap<>();
        for (Diagnostic d : diagnostics(file)) {
            out.computeIfAbsent(d.span().line(), k -> new TreeSet<>()).add(d.code());
        }
        return out;
    }

    /** Our diagnostics for one fixture file, under the configuration its header sets. */
    static List<Diagnostic> diagnostics(Path file) {
        return diagnostics(file, config(file));
    }

    /** Our diagnostics for one fixture file, under the given configuration. */
    static List<Diagnostic> diagnostics(Path file, AnalysisConfig config) {
        SourceModule m = ProjectLoader.module(file, file.toString(), String.join("\n", lines(file)) + "\n");
        Project p = new Project(List.of(m), config);
        return Analyzer.analyze(p).get(m);
    }

    /** A case: its name, its first line and the line before the next case (or the end). */
    record Case(Path file, String name, int first, int last, boolean positive) {}

    static List<Case> cases(Path file) {
        List<String> ls = lines(file);
        Map<Integer, TreeSet<String>> expected = expected(file);
        List<int[]> starts = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < ls.size(); i++) {
            Matcher c = CASE.matcher(ls.get(i));
            if (c.find()) {
                // a decorator line above belongs to the case
                int first = i + 1;
                while (first > 1 && ls.get(first - 2).startsWith("@")) first--;
                starts.add(new int[] {first});
                names.add(c.group(1));
            }
        }
        List<Case> out = new ArrayList<>();
        for (int k = 0; k < starts.size(); k++) {
            int first = starts.get(k)[0];
            int last = k + 1 < starts.size() ? starts.get(k + 1)[0] - 1 : ls.size();
            boolean positive = false;
            for (int line : expected.keySet()) positive |= line >= first && line <= last;
            out.add(new Case(file, names.get(k), first, last, positive));
        }
        return out;
    }
}
