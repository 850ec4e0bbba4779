package dev.graphmend.passes.model;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Module;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.document.PythonDocument;
import dev.graphmend.ir.source.LineIndex;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Applying {@link Diagnostic.Edit}s to a text, and checking that a fix's edits keep it parsing. */
public final class Edits {
    private Edits() {}

    /**
     * Applies non-overlapping edits given in CPython spans (1-based lines, UTF-8 columns) to the
     * text, keeping its line endings: offsets are found on the text's own lines (LF, CRLF or CR),
     * whose contents are those the line index describes.
     */
    public static String apply(String text, LineIndex lines, List<Diagnostic.Edit> edits) {
        record Abs(int start, int end, String newText) {}
        List<Integer> starts = lineStarts(text);
        List<Abs> abs = new ArrayList<>();
        for (Diagnostic.Edit e : edits) {
            abs.add(new Abs(offset(text, starts, lines, e.span().line(), e.span().col()),
                    offset(text, starts, lines, e.span().endLine(), e.span().endCol()), e.newText()));
        }
        abs.sort(Comparator.comparingInt(Abs::start).thenComparingInt(Abs::end));
        StringBuilder b = new StringBuilder(text.length() + 64);
        int at = 0;
        for (Abs a : abs) {
            if (a.start() < at) continue; // overlapping: keep the first
            b.append(text, at, a.start()).append(a.newText());
            at = a.end();
        }
        b.append(text, at, text.length());
        return b.toString();
    }

    /** UTF-16 offset in {@code text} of a 1-based line and UTF-8 byte column. */
    static int offset(String text, List<Integer> starts, LineIndex lines, int line, int utf8Col) {
        int l = Math.max(1, Math.min(line, Math.min(lines.lineCount(), starts.size())));
        int start = starts.get(l - 1);
        int cpCol = lines.cpColumnFromUtf8(l, utf8Col);
        int at = start;
        for (int i = 0; i < cpCol && at < text.length(); i++) at += Character.charCount(text.codePointAt(at));
        return at;
    }

    /** Offsets where each line of the text starts; LF, CRLF and lone CR end lines, as in Python. */
    static List<Integer> lineStarts(String text) {
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n')) starts.add(i + 1);
        }
        return starts;
    }

    /**
     * Whether a fix's edits keep the file parsing: the top-level statements they touch (with the
     * statement before and after an edit between statements) have, with the edits applied, no
     * more syntax errors than without. Only those statements are parsed, so checking a fix costs
     * what it touches, not the file (a definition inserted after the imports and a call rewritten
     * far below parse as two small pieces). {@code text} is the document's text (LF line ends)
     * and {@code lines} its line index.
     */
    public static boolean reparse(String text, LineIndex lines, Module module, List<Diagnostic.Edit> edits) {
        List<Stmt> body = module.body();
        int n = body.size();
        int[] first = new int[n], last = new int[n];
        for (int i = 0; i < n; i++) {
            Stmt st = body.get(i);
            first[i] = st.span().line();
            for (Expr d : decorators(st)) if (d.span() != null) first[i] = Math.min(first[i], d.span().line());
            last[i] = st.span().endLine();
        }
        // line ranges to check, each edit's lines widened to the statements around them
        List<int[]> ranges = new ArrayList<>();
        for (Diagnostic.Edit e : edits) {
            int a = e.span().line(), b = e.span().endLine();
            int lo = a, hi = b;
            for (int i = 0; i < n; i++) {
                if (last[i] >= a - 1 && first[i] <= b + 1) {
                    lo = Math.min(lo, first[i]);
                    hi = Math.max(hi, last[i]);
                }
            }
            // an edit in the blank lines between statements: the statements on either side
            for (int i = 0; i < n; i++) if (last[i] < a && (i + 1 == n || first[i + 1] > b)) lo = Math.min(lo, first[i]);
            for (int i = n - 1; i >= 0; i--) if (first[i] > b && (i == 0 || last[i - 1] < a)) hi = Math.max(hi, last[i]);
            ranges.add(new int[] {Math.max(1, lo), Math.min(lines.lineCount(), Math.max(hi, lo))});
        }
        ranges.sort(Comparator.comparingInt(r -> r[0]));
        List<int[]> merged = new ArrayList<>();
        for (int[] r : ranges) {
            if (!merged.isEmpty() && r[0] <= merged.get(merged.size() - 1)[1] + 1) {
                int[] m = merged.get(merged.size() - 1);
                m[1] = Math.max(m[1], r[1]);
            } else {
                merged.add(r.clone());
            }
        }
        for (int[] r : merged) {
            StringBuilder slice = new StringBuilder();
            for (int l = r[0]; l <= r[1]; l++) slice.append(lines.lineText(l)).append('\n');
            List<Diagnostic.Edit> inside = new ArrayList<>();
            for (Diagnostic.Edit e : edits) {
                if (e.span().line() < r[0] || e.span().endLine() > r[1]) continue;
                dev.graphmend.ir.ast.Span s = e.span();
                int endLine = s.endLine() - r[0] + 1, endCol = s.endCol();
                if (s.endLine() > r[1]) { endLine = r[1] - r[0] + 2; endCol = 0; }
                inside.add(new Diagnostic.Edit(new dev.graphmend.ir.ast.Span(s.line() - r[0] + 1, s.col(), endLine, endCol), e.newText()));
            }
            String before = slice.toString();
            String after = apply(before, new LineIndex(before), inside);
            if (PythonDocument.open(after, 0).errors().size() > PythonDocument.open(before, 0).errors().size()) return false;
        }
        return true;
    }

    private static List<Expr> decorators(Stmt st) {
        if (st instanceof Stmt.FunctionDef f) return f.decoratorList();
        if (st instanceof Stmt.AsyncFunctionDef f) return f.decoratorList();
        if (st instanceof Stmt.ClassDef c) return c.decoratorList();
        return List.of();
    }
}
