package dev.graphmend.passes.analysis;

import dev.graphmend.ir.source.LineIndex;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * End-of-line suppression comments (docs/rules/README.md): {@code # graphmend: ignore} (every code),
 * {@code # graphmend: ignore[GM101,GM102]} and {@code # noqa: GM101} (the codes or prefixes listed).
 * A bare {@code # noqa} is left to the linters it is usually written for.
 */
public final class Suppressions {
    private static final Pattern GRAPHMEND = Pattern.compile("#\\s*graphmend\\s*:\\s*ignore(?:\\[([^\\]]*)\\])?");
    private static final Pattern NOQA = Pattern.compile("#\\s*noqa\\s*:\\s*([A-Za-z0-9_, ]+)");
    private static final Set<String> ALL = Set.of("");
    private static final List<String> NEEDLES = List.of("\"\"\"", "\'\'\'", "graphmend", "noqa");

    /** 1-based line → suppressed code prefixes ("" = all). */
    private final Map<Integer, Set<String>> byLine;

    private Suppressions(Map<Integer, Set<String>> byLine) {
        this.byLine = byLine;
    }

    public static Suppressions scan(LineIndex lines) {
        Map<Integer, Set<String>> m = new HashMap<>();
        String openTriple = null; // the triple quote a string spanning lines is open with
        // Only lines with a triple quote (which may open or close a string spanning lines) or a
        // marker need reading: any other line leaves the scanner's state as it was.
        java.util.BitSet wanted = new java.util.BitSet(lines.lineCount() + 1);
        for (String needle : NEEDLES) {
            String all = lines.text();
            for (int i = all.indexOf(needle); i >= 0; i = all.indexOf(needle, i + needle.length())) {
                wanted.set(lines.lineOfCharIndex(i));
            }
        }
        for (int line = wanted.nextSetBit(1); line >= 0 && line <= lines.lineCount(); line = wanted.nextSetBit(line + 1)) {
            String text = lines.lineText(line);
            String[] triple = {openTriple};
            int hash = commentStart(text, triple);
            openTriple = triple[0];
            if (hash < 0) continue;
            String comment = text.substring(hash);
            Matcher g = GRAPHMEND.matcher(comment);
            if (g.find()) {
                m.put(line, g.group(1) == null ? ALL : codes(g.group(1)));
                continue;
            }
            Matcher n = NOQA.matcher(comment);
            if (n.find()) {
                Set<String> codes = codes(n.group(1));
                if (!codes.isEmpty()) m.put(line, codes);
            }
        }
        return new Suppressions(m);
    }

    /**
     * The column where the line's comment starts, or -1: a {@code #} outside string literals.
     * {@code triple[0]} carries a triple-quoted string open across lines in and out.
     */
    public static int commentStart(String text, String[] triple) {
        int i = 0, n = text.length();
        if (triple[0] != null) {
            int end = indexOfClosing(text, 0, triple[0]);
            if (end < 0) return -1;
            i = end + 3;
            triple[0] = null;
        }
        while (i < n) {
            char c = text.charAt(i);
            if (c == '#') return i;
            if (c == '\'' || c == '"') {
                String q = text.startsWith(String.valueOf(c).repeat(3), i) ? String.valueOf(c).repeat(3) : String.valueOf(c);
                int end = indexOfClosing(text, i + q.length(), q);
                if (end < 0) {
                    if (q.length() == 3) triple[0] = q;
                    return -1;
                }
                i = end + q.length();
                continue;
            }
            i++;
        }
        return -1;
    }

    private static int indexOfClosing(String text, int from, String quote) {
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                i++;
                continue;
            }
            if (text.startsWith(quote, i)) return i;
        }
        return -1;
    }

    private static Set<String> codes(String list) {
        java.util.Set<String> s = new java.util.LinkedHashSet<>();
        for (String c : list.split("[,\\s]+")) {
            c = c.trim();
            if (!c.isEmpty()) s.add(c.toUpperCase(java.util.Locale.ROOT));
        }
        return s;
    }

    public boolean suppresses(int line, String code) {
        Set<String> s = byLine.get(line);
        if (s == null) return false;
        for (String p : s) if (code.startsWith(p)) return true;
        return false;
    }

    /** Lines with any suppression comment (for tests and tools). */
    public List<Integer> lines() {
        return byLine.keySet().stream().sorted().toList();
    }
}
