package dev.graphmend.passes.rules;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.passes.fix.Transformations;
import dev.graphmend.passes.model.RuleInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rule pages and the code say the same (docs/rules/): each rule has its page, which names its
 * code, name and Dynamo ids; the rules index says "none" for a rule exactly when the code has no
 * transformation for it, and a page documents a fix (a subsection under "Fixes") only when one
 * exists. And the repository stands on its own: the code and the docs cite docs/, never the
 * product contract or notes outside the repository, and every docs/ page they cite exists.
 */
class RulePagesTest {
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Path RULES = REPO.resolve("docs/rules");

    @Test
    void eachRulePageAgreesWithItsRule() throws IOException {
        String index = Files.readString(RULES.resolve("README.md"));
        List<String> problems = new ArrayList<>();
        for (Rule r : Rules.ALL) {
            RuleInfo info = r.info();
            Path page = RULES.resolve(info.code() + ".md");
            if (!Files.isRegularFile(page)) {
                problems.add(info.code() + ": no page " + REPO.relativize(page));
                continue;
            }
            String text = Files.readString(page);
            if (!text.contains(info.code()) || !text.contains(info.name())) problems.add(info.code() + ": the page does not name " + info.name());
            for (String id : info.dynamoIds()) if (!text.contains(id)) problems.add(info.code() + ": the page does not list " + id);
            boolean fixes = !Transformations.forCode(info.code()).isEmpty();
            Matcher row = Pattern.compile("(?m)^\\| " + info.code() + " \\|[^|]*\\|[^|]*\\| *([^|]*)\\|").matcher(index);
            if (!row.find()) {
                problems.add(info.code() + ": no row in docs/rules/README.md");
            } else if (row.group(1).trim().startsWith("none") == fixes) {
                problems.add(info.code() + ": the index says '" + row.group(1).trim() + "' but the code has "
                        + (fixes ? "" : "no ") + "fix for it");
            }
            int at = text.indexOf("\n## Fixes");
            if (at >= 0 && !fixes) {
                int end = text.indexOf("\n## ", at + 1);
                String section = text.substring(at, end < 0 ? text.length() : end);
                if (section.contains("\n### ")) problems.add(info.code() + ": the page documents a fix the code does not have");
            }
        }
        assertTrue(problems.isEmpty(), "rule pages disagree with the code:\n  " + String.join("\n  ", problems));
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
