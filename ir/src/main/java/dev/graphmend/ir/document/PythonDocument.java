package dev.graphmend.ir.document;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Module;
import dev.graphmend.ir.ast.Nodes;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.PythonSourceParser;
import dev.graphmend.ir.parse.SyntaxError;
import dev.graphmend.ir.source.SourceText;
import java.util.ArrayList;
import java.util.List;

/**
 * One version of an open Python document: its text and its syntax tree, updated incrementally.
 *
 * <p>The tree is kept in chunks: one per top-level statement (statements sharing a line share a
 * chunk), each running from its first line (decorators included) to the next one's; a class's
 * members are chunks of their own. An edit inside one class member re-parses that member alone;
 * otherwise the top-level chunks the edit touches are re-parsed together. Chunks below the edit
 * are reused, moved by the number of lines the edit added or removed. The fast path is taken only
 * when it must give the same tree as parsing the whole text: the previous version had no syntax
 * errors and the re-parsed fragment parses cleanly on its own; anything else (an unclosed bracket,
 * a string left open, a changed indentation structure) parses the whole text.
 *
 * <p>Instances are immutable; {@link #apply} returns the next version.
 */
public final class PythonDocument {
    private static final ThreadLocal<PythonSourceParser> PARSER = ThreadLocal.withInitial(PythonSourceParser::new);

    /** A run of lines holding whole statements; a class's members are chunks too. */
    record Chunk(int startLine, int endLine, List<Stmt> stmts, List<Chunk> members, List<SyntaxError> errors,
                 boolean recoverySensitive) {
        Chunk sensitive(boolean s) {
            return s == recoverySensitive ? this : new Chunk(startLine, endLine, stmts, members, errors, s);
        }

        Chunk shift(int delta) {
            if (delta == 0) return this;
            List<Chunk> movedMembers = new ArrayList<>(members.size());
            for (Chunk m : members) movedMembers.add(m.shift(delta));
            List<Stmt> moved = new ArrayList<>(stmts.size());
            if (!members.isEmpty() && stmts.size() == 1 && stmts.get(0) instanceof Stmt.ClassDef c && isBodyOf(c, members)) {
                // the class's body is its members' statements: one moved copy serves both, so the
                // nodes are not copied twice, and a later edit of one member keeps the others' nodes
                List<Stmt> body = new ArrayList<>(c.body().size());
                for (Chunk m : movedMembers) body.addAll(m.stmts);
                moved.add(new Stmt.ClassDef(c.name(), Nodes.shift(c.bases(), delta), Nodes.shift(c.keywords(), delta), body,
                        Nodes.shift(c.decoratorList(), delta), Nodes.shift(c.typeParams(), delta), c.span().shiftLines(delta)));
            } else {
                for (Stmt s : stmts) moved.add((Stmt) s.shiftLines(delta));
            }
            return new Chunk(startLine + delta, endLine + delta, moved, movedMembers, shiftErrors(errors, delta),
                    recoverySensitive);
        }
    }

    /** Whether the class's body is its member chunks' statements, the same nodes in order. */
    private static boolean isBodyOf(Stmt.ClassDef c, List<Chunk> members) {
        List<Stmt> body = c.body();
        int i = 0;
        for (Chunk m : members) {
            for (Stmt s : m.stmts) {
                if (i >= body.size() || body.get(i) != s) return false;
                i++;
            }
        }
        return i == body.size();
    }

    private static List<SyntaxError> shiftErrors(List<SyntaxError> errors, int delta) {
        if (delta == 0 || errors.isEmpty()) return errors;
        List<SyntaxError> out = new ArrayList<>(errors.size());
        for (SyntaxError e : errors) {
            out.add(new SyntaxError(e.line() + delta, e.column(), e.endLine() + delta, e.endColumn(), e.message()));
        }
        return out;
    }

    /** The errors whose line lies in [from, to). */
    private static List<SyntaxError> errorsIn(List<SyntaxError> errors, int from, int to) {
        List<SyntaxError> out = new ArrayList<>();
        for (SyntaxError e : errors) {
            if (e.line() >= from && e.line() < to) out.add(e);
        }
        return out;
    }

    /** How the last update was made (for tests and the benchmark). */
    public enum Update { FULL, TOP_LEVEL, MEMBER }

    private final String text;
    private final int version;
    private final SourceText source;
    private final Module module;
    private final List<SyntaxError> errors;
    private final List<Chunk> chunks;
    /** Of text, in UTF-16 units; CR, LF and CRLF end lines. Computed on first use: a file that is only checked is never edited. */
    private volatile int[] lineStarts;
    private final Update update;

    private PythonDocument(String text, int version, SourceText source, Module module, List<SyntaxError> errors,
                           List<Chunk> chunks, int[] lineStarts, Update update) {
        this.text = text;
        this.version = version;
        this.source = source;
        this.module = module;
        this.errors = List.copyOf(errors);
        this.chunks = chunks;
        this.lineStarts = lineStarts;
        this.update = update;
    }

    /** Parses a document's whole text. */
    public static PythonDocument open(String text, int version) {
        return full(text, version);
    }

    private static PythonDocument full(String text, int version) {
        SourceText source = SourceText.of(text);
        ParseResult r = PARSER.get().parse(source);
        int lines = source.lines().lineCount();
        List<Chunk> chunks = markSensitive(chunksOf(r.module().body(), 1, lines + 1, true, r.errors()),
                PARSER.get().lastRecoverySensitiveLines());
        // an error the chunks cannot place (a decoding problem on no line) rules out reuse
        int placed = 0;
        for (Chunk c : chunks) placed += c.errors.size();
        if (placed != r.errors().size()) chunks = List.of();
        return new PythonDocument(text, version, source, r.module(), r.errors(), chunks, null, Update.FULL);
    }

    public String text() { return text; }
    public int version() { return version; }
    public SourceText source() { return source; }
    public Module module() { return module; }
    public List<SyntaxError> errors() { return errors; }
    public Update lastUpdate() { return update; }

    /** The next version: the changes applied in order, each relative to the text before it. */
    public PythonDocument apply(List<TextChange> changes, int newVersion) {
        PythonDocument doc = this;
        for (TextChange c : changes) doc = doc.apply(c, newVersion);
        return doc;
    }

    public PythonDocument apply(TextChange change, int newVersion) {
        if (change.range() == null) return full(change.text(), newVersion);
        TextChange.Range r = change.range();
        int startOffset = offsetOf(r.start());
        int endOffset = Math.max(startOffset, offsetOf(r.end()));
        String newText = text.substring(0, startOffset) + change.text() + text.substring(endOffset);
        int firstLine = lineOfOffset(startOffset) + 1; // 1-based lines the change touches
        int lastLine = lineOfOffset(endOffset) + 1;
        // whole lines replaced by whole lines (a method deleted, from the start of its line to the
        // start of the next member's) leave the line the range ends at as it was: it is not touched,
        // and taking it as touched re-parsed the whole class. (When the narrower region cannot be
        // re-parsed alone, a whole statement deleted, the wider one is tried.)
        boolean wholeLines = lastLine > firstLine && isLineStart(startOffset) && isLineStart(endOffset)
                && (change.text().isEmpty() || change.text().endsWith("\n"));
        try {
            int[] newLineStarts = lineStartsAfter(lineStarts(), startOffset, endOffset, change.text(), newText);
            SourceText newSource = SourceText.edited(source, text, startOffset, endOffset, change.text(), newText);
            PythonDocument d = wholeLines ? incremental(newText, newSource, newVersion, newLineStarts, firstLine, lastLine - 1) : null;
            if (d == null) d = incremental(newText, newSource, newVersion, newLineStarts, firstLine, lastLine);
            if (d != null) return d;
        } catch (RuntimeException e) {
            // a bug in the fast path must not lose the edit: parse the whole text
        }
        return full(newText, newVersion);
    }

    private PythonDocument incremental(String newText, SourceText newSource, int newVersion, int[] newLineStarts, int firstLine,
                                       int lastLine) {
        if (chunks.isEmpty() || !newText.isEmpty() && newText.charAt(0) == '\uFEFF') return null;
        if (!newSource.problems().isEmpty()) return null;
        int delta = newLineStarts.length - lineStarts().length;
        String normalized = newSource.normalized();
        int newLineCount = newLineStarts.length;

        int i = chunkIndex(chunks, firstLine);
        int j = chunkIndex(chunks, lastLine);
        if (i == j) {
            PythonDocument d = memberUpdate(i, newText, newVersion, newSource, normalized, newLineStarts, firstLine, lastLine, delta);
            if (d != null) return d;
        }
        // next to a chunk with errors, chunk boundaries may be artefacts of error recovery (a
        // statement keyword inside an open bracket ends the bracket only while the file is
        // broken): re-parse the whole text
        if (i > 0 && !chunks.get(i - 1).errors.isEmpty() || j + 1 < chunks.size() && !chunks.get(j + 1).errors.isEmpty()) {
            return null;
        }
        Chunk first = chunks.get(i);
        Chunk last = chunks.get(j);
        int regionStart = first.startLine;
        int regionEnd = last.endLine + delta; // exclusive
        if (regionEnd <= regionStart) return null;
        String region = linesOf(normalized, newText, newLineStarts, regionStart, regionEnd);
        if (codeIndent(region) != 0 || !joinsNeither(region)) return null; // it would join a neighbour
        PythonSourceParser.Fragment f = PARSER.get().parseFragment(region, regionStart, 0);
        if (f == null || (f.body().isEmpty() && i > 0)) return null;
        List<Chunk> replaced = markSensitive(chunksOf(f.body(), regionStart, regionEnd, true, f.errors()),
                f.recoverySensitiveLines());
        int placed = 0;
        for (Chunk c : replaced) placed += c.errors.size();
        if (placed != f.errors().size()) return null;
        List<Chunk> next = new ArrayList<>(chunks.size() + replaced.size());
        next.addAll(chunks.subList(0, i));
        next.addAll(replaced);
        for (int k = j + 1; k < chunks.size(); k++) next.add(chunks.get(k).shift(delta));
        if (next.isEmpty() || next.get(0).startLine != 1 || next.get(next.size() - 1).endLine != newLineCount + 1) {
            return null; // the chunks must cover the text exactly
        }
        if (anySensitive(next)) return null;
        return new PythonDocument(newText, newVersion, newSource, moduleOf(next), errorsOf(next), next, newLineStarts, Update.TOP_LEVEL);
    }

    /** An edit inside one member of a class, not its last: re-parse that member alone. */
    private PythonDocument memberUpdate(int i, String newText, int newVersion, SourceText newSource, String normalized,
                                        int[] newLineStarts, int firstLine, int lastLine, int delta) {
        Chunk cls = chunks.get(i);
        if (cls.members.size() < 2) return null;
        int m = chunkIndex(cls.members, firstLine);
        if (firstLine < cls.members.get(0).startLine || m != chunkIndex(cls.members, lastLine) || m == cls.members.size() - 1) {
            return null;
        }
        Chunk member = cls.members.get(m);
        int regionStart = member.startLine;
        int regionEnd = member.endLine + delta;
        if (regionEnd < regionStart) return null;
        if (regionEnd == regionStart) {
            // the member's lines are gone, and nothing came in their place: the class keeps the others
            if (!cls.errors.isEmpty() || firstLine != member.startLine) return null;
            return withMembers(i, List.of(), m, newText, newVersion, newSource, newLineStarts, delta, false);
        }
        String region = linesOf(normalized, newText, newLineStarts, regionStart, regionEnd);
        int indent = indentOf(region);
        // the edited member must still start at the class's member indentation (deleting a `def`
        // line leaves its body to the member above, which only a wider parse sees)
        if (indent <= 0 || indent != codeIndent(region) || !joinsNeither(region)
                || indent != indentOf(linesOf(source.normalized(), text, lineStarts(), member.startLine, member.startLine + 1))) {
            return null;
        }
        PythonSourceParser.Fragment f = PARSER.get().parseFragment(region, regionStart, indent);
        if (f == null || f.body().isEmpty()) return null;
        Stmt.ClassDef old = (Stmt.ClassDef) cls.stmts.get(0);
        if (!errorsIn(cls.errors, cls.startLine, cls.members.get(0).startLine).isEmpty()) return null;
        // dedents that match no outer level decide where blocks end, and a whole parse may draw the
        // class's members differently: re-parse wider
        if (hasIndentationError(cls.errors) || hasIndentationError(f.errors())) return null;
        if ((!f.errors().isEmpty() || !cls.errors.isEmpty()) && !endsWithLastMember(old)) {
            // a whole parse rebuilds a class with a broken member from its recovered body, so it
            // then ends where its last member ends; a trailing ';' would make the two differ
            return null;
        }
        int memberCol = Integer.MAX_VALUE;
        for (Chunk c : cls.members) memberCol = Math.min(memberCol, minCol(c.stmts));
        if (minCol(f.body()) != memberCol) return null;
        List<Chunk> newMembers = chunksOf(f.body(), regionStart, regionEnd, false, f.errors(), memberCol);
        return withMembers(i, newMembers, m, newText, newVersion, newSource, newLineStarts, delta,
                !f.recoverySensitiveLines().isEmpty());
    }

    /** The document with class chunk {@code i}'s member {@code m} replaced by {@code newMembers}, and what follows moved by {@code delta} lines. */
    private PythonDocument withMembers(int i, List<Chunk> newMembers, int m, String newText, int newVersion, SourceText newSource,
                                       int[] newLineStarts, int delta, boolean sensitive) {
        Chunk cls = chunks.get(i);
        Stmt.ClassDef old = (Stmt.ClassDef) cls.stmts.get(0);
        List<Chunk> members = new ArrayList<>(cls.members.size() + newMembers.size());
        members.addAll(cls.members.subList(0, m));
        members.addAll(newMembers);
        for (int k = m + 1; k < cls.members.size(); k++) members.add(cls.members.get(k).shift(delta));
        List<Stmt> body = new ArrayList<>();
        List<SyntaxError> classErrors = new ArrayList<>();
        for (Chunk c : members) {
            body.addAll(c.stmts);
            classErrors.addAll(c.errors);
        }
        Span sp = old.span();
        Stmt.ClassDef updated = new Stmt.ClassDef(old.name(), old.bases(), old.keywords(), body, old.decoratorList(),
                old.typeParams(), new Span(sp.line(), sp.col(), sp.endLine() + delta, sp.endCol()));
        List<Chunk> next = new ArrayList<>(chunks.size());
        next.addAll(chunks.subList(0, i));
        next.add(new Chunk(cls.startLine, cls.endLine + delta, List.of(updated), members, classErrors,
                cls.recoverySensitive || sensitive));
        for (int k = i + 1; k < chunks.size(); k++) next.add(chunks.get(k).shift(delta));
        if (anySensitive(next)) return null;
        return new PythonDocument(newText, newVersion, newSource, moduleOf(next), errorsOf(next), next, newLineStarts, Update.MEMBER);
    }

    /**
     * Chunks holding a line that a broken file would tokenize differently (a decorator or
     * `if ...:` line inside brackets, see PythonLexerBase) are never reused: whether the rest of
     * the file has errors decides their tree.
     */
    private static List<Chunk> markSensitive(List<Chunk> chunks, List<Integer> lines) {
        if (lines.isEmpty()) return chunks;
        List<Chunk> out = new ArrayList<>(chunks.size());
        for (Chunk c : chunks) {
            boolean s = false;
            for (int line : lines) s |= line >= c.startLine && line < c.endLine;
            out.add(c.sensitive(s));
        }
        return out;
    }

    private static boolean anySensitive(List<Chunk> chunks) {
        for (Chunk c : chunks) {
            if (c.recoverySensitive) return true;
        }
        return false;
    }

    private static boolean hasIndentationError(List<SyntaxError> errors) {
        for (SyntaxError e : errors) {
            String m = e.message();
            // inconsistent dedents re-draw block ends; a missing or unexpected indent while typing does not
            if (m.contains("unindent does not match") || m.contains("inconsistent use of tabs")) return true;
        }
        return false;
    }

    /** Whether a class's span ends where its last member's does (no ';' after that member). */
    private boolean endsWithLastMember(Stmt.ClassDef c) {
        Span end = c.body().get(c.body().size() - 1).span();
        if (end.endLine() != c.span().endLine() || end.endCol() != c.span().endCol()) return false;
        // one line's index, not the whole (previous) text's: this runs on the edit path
        String line = linesOf(source.normalized(), text, lineStarts(), end.endLine(), end.endLine() + 1);
        if (line.endsWith("\n")) line = line.substring(0, line.length() - 1);
        int cp = Math.min(new dev.graphmend.ir.source.LineIndex(line).cpColumnFromUtf8(1, end.endCol()),
                line.codePointCount(0, line.length()));
        String rest = line.substring(line.offsetByCodePoints(0, cp));
        int hash = rest.indexOf('#');
        return (hash < 0 ? rest : rest.substring(0, hash)).indexOf(';') < 0;
    }

    private static List<SyntaxError> errorsOf(List<Chunk> chunks) {
        List<SyntaxError> out = new ArrayList<>();
        for (Chunk c : chunks) out.addAll(c.errors);
        return out;
    }

    private static Module moduleOf(List<Chunk> chunks) {
        List<Stmt> body = new ArrayList<>();
        for (Chunk c : chunks) body.addAll(c.stmts);
        return new Module(body, List.of());
    }

    /** Chunks for statements covering lines [firstLine, endLine); a class's members get chunks. */
    static List<Chunk> chunksOf(List<Stmt> stmts, int firstLine, int endLine, boolean withMembers, List<SyntaxError> errors) {
        return chunksOf(stmts, firstLine, endLine, withMembers, errors, withMembers ? 0 : minCol(stmts));
    }

    /** The column of a block's own statements: error recovery may keep deeper orphans among them. */
    private static int minCol(List<Stmt> stmts) {
        int col = Integer.MAX_VALUE;
        for (Stmt s : stmts) col = Math.min(col, s.span().col());
        return stmts.isEmpty() ? 0 : col;
    }

    /**
     * A chunk starts only at a statement at {@code levelCol}, the level's own column: statements
     * that error recovery kept from an indented orphan block belong to the chunk above them.
     */
    static List<Chunk> chunksOf(List<Stmt> stmts, int firstLine, int endLine, boolean withMembers, List<SyntaxError> errors,
                                int levelCol) {
        List<Chunk> out = new ArrayList<>();
        int k = 0;
        while (k < stmts.size()) {
            int start = k == 0 ? firstLine : startLine(stmts.get(k));
            int g = k + 1;
            while (g < stmts.size() && (startLine(stmts.get(g)) == startLine(stmts.get(k))
                    || stmts.get(g).span().col() != levelCol)) {
                g++;
            }
            int end = g < stmts.size() ? startLine(stmts.get(g)) : endLine;
            List<Stmt> group = List.copyOf(stmts.subList(k, g));
            List<Chunk> members = List.of();
            if (withMembers && group.size() == 1 && group.get(0) instanceof Stmt.ClassDef c
                    && startLine(c.body().get(0)) > c.span().line()) {
                members = chunksOf(c.body(), startLine(c.body().get(0)), end, false, errors);
            }
            out.add(new Chunk(start, end, group, members, errorsIn(errors, start, end), false));
            k = g;
        }
        return out;
    }

    /** A statement's first line: its first decorator's for a decorated definition. */
    static int startLine(Stmt s) {
        List<Expr> decorators = s instanceof Stmt.FunctionDef f ? f.decoratorList()
                : s instanceof Stmt.AsyncFunctionDef f ? f.decoratorList()
                : s instanceof Stmt.ClassDef c ? c.decoratorList() : List.of();
        int line = s.span().line();
        for (Expr d : decorators) line = Math.min(line, d.span().line());
        return line;
    }

    /** The chunk holding 1-based {@code line} (the last chunk for lines past the end). */
    private static int chunkIndex(List<Chunk> chunks, int line) {
        int lo = 0;
        int hi = chunks.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (chunks.get(mid).startLine <= line) lo = mid;
            else hi = mid - 1;
        }
        return lo;
    }

    /**
     * Lines [from, to) (1-based) of LF-normalised text, each ending with a newline; {@code text} is
     * the editor's text and {@code starts} its line starts, which locate line {@code from} directly
     * when the text has no CR (normalising then returns the same string).
     */
    private static String linesOf(String normalized, String text, int[] starts, int from, int to) {
        int start = 0;
        if (normalized == text && from >= 1 && from <= starts.length) {
            start = starts[from - 1];
        } else {
            for (int line = 1; line < from && start >= 0; line++) start = normalized.indexOf('\n', start) + 1;
        }
        int end = start;
        for (int line = from; line < to; line++) {
            int nl = normalized.indexOf('\n', end);
            end = nl < 0 ? normalized.length() : nl + 1;
        }
        String s = normalized.substring(start, end);
        return s.endsWith("\n") || s.isEmpty() ? s : s + "\n";
    }

    /**
     * Whether a fragment stands apart from its neighbours in the file: it does not start with a
     * clause that would continue the statement above (`else:`, `except:` ...), and does not end
     * with a decorator or a backslash that would join the statement below.
     */
    private static boolean joinsNeither(String region) {
        String first = null;
        String last = null;
        for (String line : region.split("\n")) {
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) continue;
            if (first == null) first = t;
            last = t;
        }
        if (first == null) return true;
        for (String clause : new String[] {"else", "elif", "except", "finally", "case"}) {
            if (first.startsWith(clause) && (first.length() == clause.length()
                    || !Character.isJavaIdentifierPart(first.charAt(clause.length())))) {
                return false;
            }
        }
        return !last.startsWith("@") && !region.stripTrailing().endsWith("\\");
    }

    /** The indentation of the first line that holds code (not blank, not only a comment); 0 if none. */
    private static int codeIndent(String region) {
        int start = 0;
        while (start < region.length()) {
            int nl = region.indexOf('\n', start);
            String line = region.substring(start, nl < 0 ? region.length() : nl);
            String t = line.strip();
            if (!t.isEmpty() && !t.startsWith("#")) return indentOf(line);
            if (nl < 0) break;
            start = nl + 1;
        }
        return 0;
    }

    /** The indentation column (tabs to multiples of 8, as the tokenizer counts) of the first line. */
    private static int indentOf(String region) {
        int col = 0;
        for (int i = 0; i < region.length(); i++) {
            char c = region.charAt(i);
            if (c == ' ') col++;
            else if (c == '\t') col = (col / 8 + 1) * 8;
            else if (c == '\f') col = 0;
            else break;
        }
        return col;
    }

    // ------------------------------------------------------------ positions in the editor's text

    private int[] lineStarts() {
        int[] l = lineStarts;
        if (l == null) lineStarts = l = lineStarts(text); // a race computes equal arrays
        return l;
    }

    static int[] lineStarts(String text) {
        int count = 1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'))) count++;
        }
        int[] starts = new int[count];
        int k = 1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'))) starts[k++] = i + 1;
        }
        return starts;
    }

    /**
     * The line starts of {@code newText}, which is the text whose starts are {@code old} with
     * [start, end) replaced by {@code inserted}: starts before the change are kept, those after it
     * moved, and only the characters around the change scanned again (whether a CR ends a line
     * depends on the character after it).
     */
    static int[] lineStartsAfter(int[] old, int start, int end, String inserted, String newText) {
        int d = inserted.length() - (end - start);
        int n = newText.length();
        int a = Math.max(0, start - 1); // below a, a character and the one after it are unchanged
        int b = Math.min(n, start + inserted.length() + 1); // from b on, they are old ones moved by d
        int keep = 0; // old starts p with p <= a (their break, at p - 1, lies below a); old[0] = 0 always
        while (keep < old.length && old[keep] <= a) keep++;
        int moved = old.length; // old starts whose break lies at old index b - d or later
        while (moved > keep && old[moved - 1] - 1 >= b - d) moved--;
        int mid = 0;
        for (int i = a; i < b; i++) {
            char c = newText.charAt(i);
            if (c == '\n' || (c == '\r' && (i + 1 >= n || newText.charAt(i + 1) != '\n'))) mid++;
        }
        int[] out = new int[keep + mid + (old.length - moved)];
        System.arraycopy(old, 0, out, 0, keep);
        int k = keep;
        for (int i = a; i < b; i++) {
            char c = newText.charAt(i);
            if (c == '\n' || (c == '\r' && (i + 1 >= n || newText.charAt(i + 1) != '\n'))) out[k++] = i + 1;
        }
        for (int j = moved; j < old.length; j++) out[k++] = old[j] + d;
        return out;
    }

    /**
     * The next version with {@code [start, end)} of the text (String offsets) replaced, parsed as
     * an editor's change is: only the chunks the change touches are parsed again.
     */
    public PythonDocument replace(int start, int end, String replacement, int newVersion) {
        int[] starts = lineStarts();
        int startLine = lineOfOffset(start);
        int endLine = lineOfOffset(end);
        return apply(TextChange.replace(startLine, start - starts[startLine], endLine, end - starts[endLine], replacement),
                newVersion);
    }

    /** A String offset for an LSP position, clamped to the text and to the line's content. */
    private int offsetOf(TextChange.Position p) {
        if (p.line() < 0) return 0;
        int[] starts = lineStarts();
        if (p.line() >= starts.length) return text.length();
        int start = starts[p.line()];
        int end = p.line() + 1 < starts.length ? starts[p.line() + 1] : text.length();
        while (end > start && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) end--;
        return start + Math.min(Math.max(0, p.character()), end - start);
    }

    /** Whether a String offset is where a line starts. */
    private boolean isLineStart(int offset) {
        return lineStarts()[lineOfOffset(offset)] == offset;
    }

    /** The 0-based line holding a String offset. */
    private int lineOfOffset(int offset) {
        int[] starts = lineStarts();
        int lo = 0;
        int hi = starts.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (starts[mid] <= offset) lo = mid;
            else hi = mid - 1;
        }
        return lo;
    }
}
