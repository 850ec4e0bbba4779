package dev.graphmend.passes.fix;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.source.LineIndex;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.analysis.Suppressions;
import java.util.ArrayList;
import java.util.List;

/**
 * The source of one module as rewrites need it: the exact text of a node (so rewrites keep the
 * user's spelling), a line's indentation, the comments inside a region (so a rewrite keeps them),
 * and how torch is imported.
 */
public final class SourceText {
    private final SourceModule module;
    private final LineIndex lines;

    private SourceText(SourceModule module) {
        this.module = module;
        this.lines = module.ir().lines();
    }

    private static final SourceModule.Derived<SourceText> OF = new SourceModule.Derived<>("source text", SourceText::new);
    private volatile int lastImportLine = -1;

    /** The module's source text (one per version, shared by every fix site of the module). */
    public static SourceText of(SourceModule m) {
        return m.derived(OF);
    }

    public LineIndex lines() { return lines; }

    /** The text a span covers (lines joined with LF). */
    public String text(Span s) {
        if (s.line() == s.endLine()) {
            String l = lines.lineText(s.line());
            return l.substring(charCol(s.line(), s.col()), charCol(s.line(), s.endCol()));
        }
        StringBuilder b = new StringBuilder(lines.lineText(s.line()).substring(charCol(s.line(), s.col())));
        for (int l = s.line() + 1; l < s.endLine(); l++) b.append('\n').append(lines.lineText(l));
        b.append('\n').append(lines.lineText(s.endLine()), 0, charCol(s.endLine(), s.endCol()));
        return b.toString();
    }

    public String text(Node n) {
        return text(n.span());
    }

    /**
     * An expression's text fit to stand as a call argument: parenthesised when a bare tuple,
     * yield or starred expression would change meaning there.
     */
    public String argument(Expr e) {
        String t = text(e);
        if (e instanceof Expr.Tuple && !t.startsWith("(") || e instanceof Expr.Yield || e instanceof Expr.YieldFrom
                || e instanceof Expr.GeneratorExp && !t.startsWith("(")) {
            return "(" + t + ")";
        }
        return t;
    }

    /** The char offset in its line of a CPython (UTF-8 byte) column. */
    public int charColumn(int line, int utf8Col) {
        return charCol(line, utf8Col);
    }

    private int charCol(int line, int utf8Col) {
        String l = lines.lineText(line);
        int cp = lines.cpColumnFromUtf8(line, utf8Col);
        return l.offsetByCodePoints(0, Math.min(cp, l.codePointCount(0, l.length())));
    }

    /**
     * The leading whitespace of a line as a new line at the same column writes it: a form feed in
     * it resets the column to 0 (CPython's tokenizer), so only what follows the last one counts; a
     * line starting {@code "\f    "} sits at column 4, not 0.
     */
    public String indentation(int line) {
        String l = lines.lineText(line);
        int i = 0;
        int from = 0;
        while (i < l.length() && (l.charAt(i) == ' ' || l.charAt(i) == '\t' || l.charAt(i) == '\f')) {
            if (l.charAt(i) == '\f') from = i + 1;
            i++;
        }
        return l.substring(from, i);
    }

    /** One indentation step as this file writes it (the first indented line's whitespace), four spaces by default. */
    public String indentUnit() {
        for (int l = 1; l <= lines.lineCount(); l++) {
            String ind = indentation(l);
            if (!ind.isEmpty() && !lines.lineText(l).isBlank()) return ind.startsWith("\t") ? "\t" : ind;
        }
        return "    ";
    }

    /** The comment at the end of a line ("# ..."), or null. */
    public String comment(int line) {
        int at = Suppressions.commentStart(lines.lineText(line), new String[1]);
        return at < 0 ? null : lines.lineText(line).substring(at).strip();
    }

    /** The comments on the lines of a statement other than its first, in order: a rewrite keeps them. */
    public List<String> innerComments(Stmt s) {
        List<String> out = new ArrayList<>();
        for (int l = s.span().line() + 1; l <= s.span().endLine(); l++) {
            String c = comment(l);
            if (c != null) out.add(c);
        }
        return out;
    }

    /**
     * How code in this module's functions names torch: the local name of a module-level
     * {@code import torch} / {@code import torch as th}, also one inside a module-level {@code if}
     * or {@code try} ({@code if is_torch_available(): import torch}: code that runs compiled has
     * torch) but not under {@code if TYPE_CHECKING:}; null when torch is not imported as a module.
     */
    public String torchAlias() {
        return torchAlias(module.ir().module().body(), true);
    }

    /**
     * How module-level code can name torch: the local name of an unconditional module-level
     * {@code import torch}, or null. Code a fix adds at module level (an operator's definition)
     * runs at import time, also where torch is missing, so a conditional import does not do.
     */
    public String unconditionalTorchAlias() {
        return torchAlias(module.ir().module().body(), false);
    }

    private static String torchAlias(List<Stmt> body, boolean conditional) {
        for (Stmt s : body) {
            if (s instanceof Stmt.Import imp) {
                for (var a : imp.names()) {
                    if (a.name().equals("torch")) return a.asname() == null ? "torch" : a.asname();
                }
            }
        }
        if (!conditional) return null;
        for (Stmt s : body) {
            String inner = s instanceof Stmt.If i && !isTypeChecking(i.test())
                    ? first(torchAlias(i.body(), true), torchAlias(i.orelse(), true))
                    : s instanceof Stmt.Try t ? torchAlias(t.body(), true) : null;
            if (inner != null) return inner;
        }
        return null;
    }

    /** {@code TYPE_CHECKING} / {@code typing.TYPE_CHECKING}: a block that never runs. */
    private static boolean isTypeChecking(Expr test) {
        return test instanceof Expr.Name n && n.id().equals("TYPE_CHECKING")
                || test instanceof Expr.Attribute a && a.attr().equals("TYPE_CHECKING");
    }

    private static String first(String a, String b) {
        return a != null ? a : b;
    }

    /** The last line of the module's last top-level import statement (0 when it has none). */
    public int lastImportLine() {
        int last = lastImportLine;
        if (last >= 0) return last;
        last = 0;
        for (Stmt s : module.ir().module().body()) {
            if (s instanceof Stmt.Import || s instanceof Stmt.ImportFrom) last = s.span().endLine();
        }
        return lastImportLine = last;
    }

    /**
     * Why a fix may not add {@code import torch} to this module: it imports torch only under
     * {@code if TYPE_CHECKING:} (torch is optional there; an import at module level would make the
     * module need it). Null when the module names torch at run time or never imports it.
     */
    public String optionalTorchProblem() {
        if (torchAlias() != null) return null;
        for (Stmt s : module.ir().module().body()) {
            if (s instanceof Stmt.If i && isTypeChecking(i.test()) && torchAlias(i.body(), false) != null) {
                return "this module imports torch only for type checking (torch is optional here); the fix would "
                        + "make it import torch";
            }
        }
        return null;
    }

    /** The line after which to add a top-level import: the last import of the first import block (0: the top). */
    public int importInsertionLine() {
        int last = 0, docstring = 0;
        List<Stmt> body = module.ir().module().body();
        for (int i = 0; i < body.size(); i++) {
            Stmt s = body.get(i);
            if (s instanceof Stmt.Import || s instanceof Stmt.ImportFrom) last = s.span().endLine();
            else if (last > 0) break;
            else if (i == 0 && s instanceof Stmt.Expr e && e.value() instanceof Expr.Constant) docstring = s.span().endLine();
            else break;
        }
        return last > 0 ? last : docstring; // never above the module docstring
    }

    /** An edit inserting whole lines after line {@code after} (0: before the first line). */
    public dev.graphmend.passes.model.Diagnostic.Edit insertLinesAfter(int after, String linesText) {
        if (after == 0) return new dev.graphmend.passes.model.Diagnostic.Edit(new Span(1, 0, 1, 0), linesText + "\n");
        int endCol = lines.utf8Column(after, lines.lineText(after).codePointCount(0, lines.lineText(after).length()));
        return new dev.graphmend.passes.model.Diagnostic.Edit(new Span(after, endCol, after, endCol), "\n" + linesText);
    }
}
