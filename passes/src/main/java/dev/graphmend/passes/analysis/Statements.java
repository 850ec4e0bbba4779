package dev.graphmend.passes.analysis;

import dev.graphmend.ir.ast.ExceptHandler;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.MatchCase;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.ast.UnaryOperator;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Walks of a function body: its statements (not those of nested functions and classes, which
 * run only when called), optionally without the branches that run only when not compiling, and
 * the expressions of one statement.
 */
public final class Statements {
    private Statements() {}

    /** Every statement of the body, nested blocks included, in source order. */
    public static List<Stmt> of(List<Stmt> body) {
        List<Stmt> out = new ArrayList<>();
        walk(body, out, null, null);
        return out;
    }

    /**
     * The statements Dynamo traces: like {@link #of}, but without the branch of an
     * {@code if torch.compiler.is_compiling()} test that runs only in eager mode, and without the
     * statements after an {@code if is_compiling(): return ...} that ends the traced path.
     *
     * @param isCompilingCall whether an expression is a call of an is-compiling check
     */
    public static List<Stmt> live(List<Stmt> body, Predicate<Expr> isCompilingCall, Function<Expr, Boolean> staticTruth) {
        List<Stmt> out = new ArrayList<>();
        walk(body, out, isCompilingCall, staticTruth);
        return out;
    }

    /** +1: the test is true while compiling; -1: false while compiling; 0: not a guard. */
    public static int guardPolarity(Expr test, Predicate<Expr> isCompilingCall) {
        if (isCompilingCall == null) return 0;
        if (isCompilingCall.test(test)) return 1;
        if (test instanceof Expr.UnaryOp u && u.op() == UnaryOperator.Not) return -guardPolarity(u.operand(), isCompilingCall);
        if (test instanceof Expr.BoolOp b) {
            // `not compiling and X`: false while compiling; `compiling or X`: true while compiling
            boolean and = b.op() == dev.graphmend.ir.ast.BoolOperator.And;
            for (Expr v : b.values()) {
                int p = guardPolarity(v, isCompilingCall);
                if (and && p < 0) return -1;
                if (!and && p > 0) return 1;
            }
        }
        return 0;
    }

    private static boolean endsPath(List<Stmt> body) {
        if (body.isEmpty()) return false;
        Stmt last = body.get(body.size() - 1);
        return last instanceof Stmt.Return || last instanceof Stmt.Raise;
    }

    private static void walk(List<Stmt> body, List<Stmt> out, Predicate<Expr> compiling, Function<Expr, Boolean> truth) {
        for (Stmt s : body) {
            out.add(s);
            if (s instanceof Stmt.If i) {
                int p = guardPolarity(i.test(), compiling);
                if (p == 0 && truth != null) {
                    // a branch on a constant Dynamo sees: only the taken side is traced
                    Boolean t = truth.apply(i.test());
                    if (t != null) p = t ? 1 : -1;
                }
                if (p >= 0) walk(i.body(), out, compiling, truth);
                if (p <= 0) walk(i.orelse(), out, compiling, truth);
                if (p > 0 && endsPath(i.body())) return; // the rest runs only in eager mode
                if (p < 0 && endsPath(i.orelse())) return;
            } else {
                for (List<Stmt> b : nestedBlocks(s)) walk(b, out, compiling, truth);
            }
        }
    }

    /** The innermost statement of a function body (nested blocks too, not nested definitions) whose span holds {@code target}; null if none. */
    public static Stmt innermostAround(List<Stmt> body, dev.graphmend.ir.ast.Span target) {
        Stmt inner = null;
        for (Stmt s : of(body)) {
            if (s.span() != null && contains(s.span(), target) && (inner == null || contains(inner.span(), s.span()))) inner = s;
        }
        return inner;
    }

    /** Whether {@code inner} lies within {@code outer}, columns included. */
    public static boolean contains(dev.graphmend.ir.ast.Span outer, dev.graphmend.ir.ast.Span inner) {
        boolean startsIn = outer.line() < inner.line() || outer.line() == inner.line() && outer.col() <= inner.col();
        boolean endsIn = outer.endLine() > inner.endLine() || outer.endLine() == inner.endLine() && outer.endCol() >= inner.endCol();
        return startsIn && endsIn;
    }

    /**
     * The statement blocks nested in a compound statement other than an {@code if} and a function
     * or class definition: a loop's body and {@code else}, a {@code with} body, a {@code try}'s body,
     * handlers, {@code else} and {@code finally}, a {@code match}'s cases; none for any other.
     */
    public static List<List<Stmt>> nestedBlocks(Stmt s) {
        if (s instanceof Stmt.For f) return List.of(f.body(), f.orelse());
        if (s instanceof Stmt.AsyncFor f) return List.of(f.body(), f.orelse());
        if (s instanceof Stmt.While w) return List.of(w.body(), w.orelse());
        if (s instanceof Stmt.With w) return List.of(w.body());
        if (s instanceof Stmt.AsyncWith w) return List.of(w.body());
        if (s instanceof Stmt.Try t) return tryBlocks(t.body(), t.handlers(), t.orelse(), t.finalbody());
        if (s instanceof Stmt.TryStar t) return tryBlocks(t.body(), t.handlers(), t.orelse(), t.finalbody());
        if (s instanceof Stmt.Match m) return m.cases().stream().map(MatchCase::body).toList();
        return List.of();
    }

    private static List<List<Stmt>> tryBlocks(List<Stmt> body, List<ExceptHandler> handlers, List<Stmt> orelse, List<Stmt> finalbody) {
        List<List<Stmt>> out = new java.util.ArrayList<>();
        out.add(body);
        for (ExceptHandler h : handlers) out.add(h.body());
        out.add(orelse);
        out.add(finalbody);
        return out;
    }

    /**
     * Visits every statement under {@code root} (a module or a statement), the bodies of nested
     * functions and classes included, unlike {@link #of}: for indexes of a whole module.
     */
    public static void everywhere(Node root, Consumer<Stmt> visitor) {
        // only the statement blocks are walked: asking every statement for its children visited
        // their expressions too, and the index of a 5,000-line file's functions was built at each keystroke
        if (root instanceof dev.graphmend.ir.ast.Module m) everywhere(m.body(), visitor);
        else if (root instanceof Stmt s) nested(s, visitor);
        else if (root instanceof ExceptHandler h) everywhere(h.body(), visitor);
        else if (root instanceof MatchCase c) everywhere(c.body(), visitor);
        else root.forEachChild(c -> {
            if (c instanceof Stmt s) {
                visitor.accept(s);
                nested(s, visitor);
            } else if (c instanceof ExceptHandler || c instanceof MatchCase) {
                everywhere(c, visitor);
            }
        });
    }

    private static void everywhere(List<Stmt> block, Consumer<Stmt> visitor) {
        for (Stmt s : block) {
            if (s == null) continue;
            visitor.accept(s);
            nested(s, visitor);
        }
    }

    /** The statements nested in {@code s}, blocks in the order of its fields (as {@code forEachChild} gives them). */
    private static void nested(Stmt s, Consumer<Stmt> visitor) {
        if (s instanceof Stmt.FunctionDef f) everywhere(f.body(), visitor);
        else if (s instanceof Stmt.AsyncFunctionDef f) everywhere(f.body(), visitor);
        else if (s instanceof Stmt.ClassDef c) everywhere(c.body(), visitor);
        else if (s instanceof Stmt.If i) {
            everywhere(i.body(), visitor);
            everywhere(i.orelse(), visitor);
        } else if (s instanceof Stmt.For f) {
            everywhere(f.body(), visitor);
            everywhere(f.orelse(), visitor);
        } else if (s instanceof Stmt.AsyncFor f) {
            everywhere(f.body(), visitor);
            everywhere(f.orelse(), visitor);
        } else if (s instanceof Stmt.While w) {
            everywhere(w.body(), visitor);
            everywhere(w.orelse(), visitor);
        } else if (s instanceof Stmt.With w) {
            everywhere(w.body(), visitor);
        } else if (s instanceof Stmt.AsyncWith w) {
            everywhere(w.body(), visitor);
        } else if (s instanceof Stmt.Try t) {
            tryBlocks(t.body(), t.handlers(), t.orelse(), t.finalbody(), visitor);
        } else if (s instanceof Stmt.TryStar t) {
            tryBlocks(t.body(), t.handlers(), t.orelse(), t.finalbody(), visitor);
        } else if (s instanceof Stmt.Match m) {
            for (MatchCase c : m.cases()) if (c != null) everywhere(c.body(), visitor);
        }
    }

    /** A {@code try} or {@code try*}: its body, each handler's, the else block, the finally block. */
    private static void tryBlocks(List<Stmt> body, List<ExceptHandler> handlers, List<Stmt> orelse, List<Stmt> finalbody,
                                  Consumer<Stmt> visitor) {
        everywhere(body, visitor);
        for (ExceptHandler h : handlers) if (h != null) everywhere(h.body(), visitor);
        everywhere(orelse, visitor);
        everywhere(finalbody, visitor);
    }

    /**
     * The expressions a statement evaluates itself (not those of the statements nested in it),
     * outermost first: tests, values, targets, call arguments, lambda bodies, comprehensions.
     */
    public static void expressions(Stmt s, Consumer<Expr> visitor) {
        if (s instanceof Stmt.FunctionDef || s instanceof Stmt.AsyncFunctionDef || s instanceof Stmt.ClassDef) return;
        s.forEachChild(child -> visitNonStatement(child, visitor));
    }

    private static void visitNonStatement(Node n, Consumer<Expr> visitor) {
        if (n instanceof Stmt || n instanceof ExceptHandler || n instanceof MatchCase) return;
        if (n instanceof Expr e) visitor.accept(e);
        if (n instanceof Expr.Lambda) return; // its body runs only if and when the lambda is called
        n.forEachChild(child -> visitNonStatement(child, visitor));
    }

    /**
     * Whether two statements, of two versions of a module, are the same node, or the same source
     * text on the same number of lines (decorators and comments included: a new suppression is a
     * change): then they parse to the same tree but for its lines.
     */
    public static boolean sameText(dev.graphmend.ir.document.UniIR bIr, dev.graphmend.ir.document.UniIR aIr, Stmt b, Stmt a) {
        if (a == b) return true;
        if (!a.pyType().equals(b.pyType())) return false;
        int bf = firstLine(b), af = firstLine(a), len = b.span().endLine() - bf;
        if (a.span().endLine() - af != len) return false;
        dev.graphmend.ir.source.LineIndex bl = bIr.lines(), al = aIr.lines(); // each call goes through document and source
        for (int k = 0; k <= len; k++) {
            if (!bl.sameLine(bf + k, al, af + k)) return false;
        }
        return true;
    }

    /** The first line of a statement, its decorators included. */
    public static int firstLine(Stmt s) {
        int line = s.span().line();
        List<Expr> decorators = s instanceof Stmt.FunctionDef f ? f.decoratorList()
                : s instanceof Stmt.ClassDef c ? c.decoratorList()
                : s instanceof Stmt.AsyncFunctionDef f ? f.decoratorList() : List.of();
        for (Expr d : decorators) if (d.span() != null) line = Math.min(line, d.span().line());
        return line;
    }

    /** Whether a body (nested functions included) declares a name global, which rebinds a module-level name. */
    public static boolean declaresGlobal(List<Stmt> body) {
        List<Node> todo = new ArrayList<>(body);
        while (!todo.isEmpty()) {
            Node n = todo.remove(todo.size() - 1);
            if (n instanceof Stmt.Global) return true;
            n.forEachChild(todo::add);
        }
        return false;
    }
}
