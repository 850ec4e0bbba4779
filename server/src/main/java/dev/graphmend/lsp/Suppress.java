package dev.graphmend.lsp;

import dev.graphmend.ir.source.LineIndex;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The edit behind "Disable GMxxx for this line": adds the code to the line's
 * {@code # graphmend: ignore[...]} comment, or appends such a comment at the end of the line
 * (after any other comment). Finding where a comment starts needs the string state of the lines
 * above (a triple-quoted string may span lines), so the scan starts at line 1.
 */
final class Suppress {
    private static final Pattern IGNORE_LIST = Pattern.compile("#\\s*graphmend\\s*:\\s*ignore\\[([^\\]]*)\\]");

    private Suppress() {}

    /** Where to insert (1-based line, UTF-16 column in the line) and what; null when no comment can go there. */
    record Insert(int line, int utf16Col, String text) {}

    static Insert forLine(LineIndex lines, int line, int endLine, String code) {
        String[] open = scan(lines, Math.max(line, endLine));
        for (int l : new int[] {line, endLine}) {
            // a line that ends inside a triple-quoted string cannot take a comment
            if (l < 1 || l > lines.lineCount() || open[l] != null) continue;
            String text = lines.lineText(l);
            int hash = commentStart(text, new String[] {open[l - 1]});
            String code0 = hash < 0 ? text : text.substring(0, hash);
            if (code0.stripTrailing().endsWith("\\")) continue; // a comment after a line continuation is a syntax error
            if (hash >= 0) {
                Matcher m = IGNORE_LIST.matcher(text);
                if (m.find(hash)) {
                    String list = m.group(1).trim();
                    String add = list.isEmpty() ? code : (list.endsWith(",") ? " " : ", ") + code;
                    return new Insert(l, m.end(1), add);
                }
            }
            String sep = text.isBlank() ? "" : text.endsWith(" ") || text.endsWith("\t") ? " " : "  ";
            return new Insert(l, text.length(), sep + "# graphmend: ignore[" + code + "]");
        }
        return null;
    }

    /** open[l]: the triple quote line l (1-based) ends inside, or null; open[0] is null. */
    private static String[] scan(LineIndex lines, int last) {
        int n = Math.min(Math.max(last, 1), lines.lineCount());
        String[] open = new String[n + 1];
        String[] triple = {null};
        for (int l = 1; l <= n; l++) {
            commentStart(lines.lineText(l), triple);
            open[l] = triple[0];
        }
        return open;
    }

    /** The column of the line's comment ({@code #} outside strings), or -1: the engine's scanner. */
    static int commentStart(String text, String[] triple) {
        return dev.graphmend.passes.analysis.Suppressions.commentStart(text, triple);
    }
}
