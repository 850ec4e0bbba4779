package dev.graphmend.passes.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.passes.Analyzer;
import dev.graphmend.passes.Findings;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.model.FixInfo;
import dev.graphmend.passes.model.RuleInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rule pages and the registry say the same (docs/rules/): each rule has its page, which names
 * its code, name and Dynamo ids; the fixes a page documents (its {@code ### name (safety)}
 * headings under "Fixes") are the rule's fixes, in order, with their safety and first torch
 * version; the page's example gets exactly the diagnostics its {@code # GMxxx} comments mark; the
 * rules index's table is the one the registry generates. And the repository stands on its own:
 * the code and the docs cite docs/, never the product contract or notes outside the repository,
 * and every docs/ page they cite exists.
 *
 * <p>{@code -Dgraphmend.updateDocs=true} rewrites the index's table instead of failing on it.
 */
class RulePagesTest {
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Path RULES = REPO.resolve("docs/rules");
    private static final Pattern FIX_HEADING = Pattern.compile("(?m)^### (.+ \\((?:safe|unsafe)(?:, torch-version [0-9.]+ and later)?\\))$");
    private static final Pattern MARKER = Pattern.compile("#\\s*(GM\\d{3})( twice)?(?: \\(((?:GB\\d{4}(?:, )?)+)\\))?\\s*$");

    private static String page(RuleInfo info) throws IOException {
        return Files.readString(RULES.resolve(info.code() + ".md"));
    }

    private static String section(String text, String heading) {
        int at = text.indexOf("\n## " + heading + "\n");
        if (at < 0) return null;
        int end = text.indexOf("\n## ", at + 1);
        return text.substring(at, end < 0 ? text.length() : end);
    }

    @Test
    void eachRulePageNamesItsRule() throws IOException {
        List<String> problems = new ArrayList<>();
        for (RuleRegistry.Entry e : RuleRegistry.ALL) {
            RuleInfo info = e.info();
            if (!Files.isRegularFile(RULES.resolve(info.code() + ".md"))) {
                problems.add(info.code() + ": no page docs/rules/" + info.code() + ".md");
                continue;
            }
            String text = page(info);
            if (!text.startsWith("# " + info.code() + ": " + info.name() + "\n")) problems.add(info.code() + ": the page's title is not '# " + info.code() + ": " + info.name() + "'");
            for (String id : info.dynamoIds()) if (!text.contains(id)) problems.add(info.code() + ": the page does not list " + id);
        }
        assertTrue(problems.isEmpty(), "rule pages disagree with the registry:\n  " + String.join("\n  ", problems));
    }

    @Test
    void eachRulePageDocumentsExactlyItsFixes() throws IOException {
        List<String> problems = new ArrayList<>();
        for (RuleRegistry.Entry e : RuleRegistry.ALL) {
            String fixes = section(page(e.info()), "Fixes");
            if (fixes == null) {
                problems.add(e.code() + ": the page has no '## Fixes' section");
                continue;
            }
            List<String> documented = new ArrayList<>();
            Matcher m = FIX_HEADING.matcher(fixes);
            while (m.find()) documented.add(m.group(1));
            List<String> declared = e.fixes().stream().map(t -> t.info().heading()).toList();
            if (!documented.equals(declared)) {
                problems.add(e.code() + ": the page documents " + documented + ", the code has " + declared);
            }
        }
        assertTrue(problems.isEmpty(), "rule pages disagree with the registry:\n  " + String.join("\n  ", problems));
    }

    /**
     * A rule declares it follows torch-version (the hover then names the version a diagnostic was
     * judged for) exactly when its page says how torch-version changes it, and whenever one of its
     * fixes starts at a torch version.
     */
    @Test
    void aRuleFollowsTorchVersionExactlyWhenItsPageSaysHow() throws IOException {
        List<String> problems = new ArrayList<>();
        for (RuleRegistry.Entry e : RuleRegistry.ALL) {
            boolean pageSays = page(e.info()).contains("torch-version");
            if (pageSays != e.info().followsTorchVersion()) {
                problems.add(e.code() + ": the page " + (pageSays ? "names" : "does not name") + " torch-version, the rule's metadata "
                        + (e.info().followsTorchVersion() ? "follows it" : "does not follow it"));
            }
            boolean gatedFix = e.fixes().stream().anyMatch(t -> t.info().sinceTorch() != null);
            if (gatedFix && !e.info().followsTorchVersion()) problems.add(e.code() + ": a fix starts at a torch version, the rule does not follow it");
        }
        assertTrue(problems.isEmpty(), "torch-version gates undeclared:\n  " + String.join("\n  ", problems));
    }

    @Test
    void theHeadingPatternReadsWhatFixInfoWrites() {
        FixInfo print = new FixInfo("Print inside the graph", dev.graphmend.passes.model.Safety.SAFE, "2.15");
        Matcher m = FIX_HEADING.matcher("### " + print.heading());
        assertTrue(m.matches(), print.heading());
        assertTrue(!FIX_HEADING.matcher("### When no fix is offered").matches());
    }

    /** Each page's example, analysed: every {@code # GMxxx} comment is a diagnostic on its line, and there are no others. */
    @Test
    void eachRulePageExampleGetsTheDiagnosticsItMarks() throws IOException {
        List<String> problems = new ArrayList<>();
        for (RuleRegistry.Entry e : RuleRegistry.ALL) {
            String example = section(page(e.info()), "Example");
            if (example == null) {
                problems.add(e.code() + ": the page has no '## Example' section");
                continue;
            }
            Matcher block = Pattern.compile("```python\n(.*?)```", Pattern.DOTALL).matcher(example);
            if (!block.find()) {
                problems.add(e.code() + ": the example has no python block");
                continue;
            }
            String code = block.group(1);
            Map<Integer, List<String>> marked = new TreeMap<>(); // line → codes (with a count), and ids
            Map<Integer, List<String>> markedIds = new TreeMap<>();
            String[] lines = code.split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                Matcher m = MARKER.matcher(lines[i]);
                if (!m.find()) continue;
                List<String> codes = new ArrayList<>(List.of(m.group(1)));
                if (m.group(2) != null) codes.add(m.group(1));
                marked.put(i + 1, codes);
                if (m.group(3) != null) markedIds.put(i + 1, List.of(m.group(3).split(", ")));
            }
            if (marked.isEmpty()) problems.add(e.code() + ": the example marks no diagnostic (# " + e.code() + ")");
            if (marked.values().stream().noneMatch(c -> c.contains(e.code()))) problems.add(e.code() + ": the example never shows " + e.code());

            Path file = RULES.resolve(e.code() + "_example.py");
            SourceModule module = ProjectLoader.module(file, file.toString(), code);
            Findings found = Analyzer.analyze(new Project(List.of(module), AnalysisConfig.defaults()));
            Map<Integer, List<String>> actual = new TreeMap<>();
            for (Diagnostic d : found.get(module)) {
                actual.computeIfAbsent(d.span().line(), k -> new ArrayList<>()).add(d.code());
                List<String> ids = markedIds.get(d.span().line());
                if (ids != null && !d.dynamoIds().containsAll(ids)) {
                    problems.add(e.code() + " example line " + d.span().line() + ": marked " + ids + ", reported with " + d.dynamoIds());
                }
            }
            actual.values().forEach(l -> l.sort(null));
            marked.values().forEach(l -> l.sort(null));
            if (!actual.equals(marked)) problems.add(e.code() + ": the example marks " + marked + " (line → codes), the analysis reports " + actual);
        }
        assertTrue(problems.isEmpty(), "rule page examples disagree with the analysis:\n  " + String.join("\n  ", problems));
    }

    @Test
    void theRulesIndexTableIsTheRegistrys() throws IOException {
        Path index = RULES.resolve("README.md");
        String text = Files.readString(index);
        String begin = "<!-- the table below is generated from the rule registry (RuleRegistry.indexTable) -->\n";
        int from = text.indexOf(begin);
        assertTrue(from >= 0, "docs/rules/README.md lacks the line: " + begin);
        from += begin.length();
        int to = text.indexOf("\n\n", from);
        String table = text.substring(from, to < 0 ? text.length() : to + 1);
        String generated = RuleRegistry.indexTable();
        if (!table.equals(generated) && Boolean.getBoolean("graphmend.updateDocs")) {
            Files.writeString(index, text.substring(0, from) + generated + text.substring(from + table.length()));
            return;
        }
        assertEquals(generated, table, "docs/rules/README.md's table is not the registry's; regenerate it with "
                + "mvn -pl passes test -Dtest=RulePagesTest -Dgraphmend.updateDocs=true");
    }

    @Test
    void theRepositoryCitesOnlyItsOwnDocs() throws IOException {
        List<String> problems = new ArrayList<>();
        Pattern outside = Pattern.compile("\\bSPEC(\\.md| section| §)|shared/(reference|notes)|\\.\\./shared");
        Pattern cited = Pattern.compile("\\bdocs/[\\w./-]+\\.(md|tsv)");
        List<Path> files;
        try (Stream<Path> s = Files.walk(REPO)) {
            files = s.filter(p -> {
                String rel = REPO.relativize(p).toString();
                return Files.isRegularFile(p) && !rel.contains("node_modules") && !rel.contains("/target/")
                        && !rel.startsWith("bench/out") && !rel.startsWith(".git/") && !rel.startsWith("editors-test/vscode-real/out")
                        && rel.matches(".*\\.(java|ts|py|md|lua|sh|cjs|mjs)$");
            }).toList();
        }
        assertTrue(files.size() > 100, "found only " + files.size() + " files under " + REPO);
        for (Path f : files) {
            String text = Files.readString(f);
            String rel = REPO.relativize(f).toString();
            Matcher m = outside.matcher(text);
            if (m.find()) problems.add(rel + ": cites '" + m.group() + "', which a clone of the repository does not hold");
            Matcher c = cited.matcher(text);
            while (c.find()) {
                if (c.group().contains("GMxxx")) continue; // a placeholder for any rule's page
                if (!Files.exists(REPO.resolve(c.group()))) problems.add(rel + ": cites " + c.group() + ", which does not exist");
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n  ", problems));
    }
}
