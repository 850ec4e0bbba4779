package dev.graphmend.passes.fix;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.analysis.Statements;
import java.util.Set;

/**
 * The names and attribute paths ({@code x}, {@code self.cache}) a piece of code assigns and reads,
 * for rewrites that move or duplicate statements and must show that the move changes nothing
 * another part reads. Assignments only: a call that mutates its receiver is not seen, so a rewrite
 * relying on this says so in its note.
 */
final class AccessPaths {
    private AccessPaths() {}

    /** {@code x} for a name, {@code a.b.c} for an attribute chain on a name; null otherwise. */
    static String path(Expr e) {
        if (e instanceof Expr.Name n) return n.id();
        if (e instanceof Expr.Attribute a) {
            String base = path(a.value());
            return base == null ? null : base + "." + a.attr();
        }
        return null;
    }

    /** Adds what the statement (and every statement nested in it) assigns to {@code writes} and reads to {@code reads}. */
    static void collect(Stmt s, Set<String> writes, Set<String> reads) {
        visitStatement(s, writes, reads);
        Statements.everywhere(s, x -> visitStatement(x, writes, reads));
    }

    private static void visitStatement(Stmt s, Set<String> writes, Set<String> reads) {
        if (s instanceof Stmt.Assign a) {
            a.targets().forEach(t -> target(t, writes, reads));
            reads(a.value(), reads);
        } else if (s instanceof Stmt.AugAssign a) {
            target(a.target(), writes, reads);
            reads(a.target(), reads);
            reads(a.value(), reads);
        } else if (s instanceof Stmt.AnnAssign a) {
            if (a.value() != null) {
                target(a.target(), writes, reads);
                reads(a.value(), reads);
            }
        } else if (s instanceof Stmt.For f) {
            target(f.target(), writes, reads);
            reads(f.iter(), reads);
        } else {
            Statements.expressions(s, e -> reads(e, reads));
        }
    }

    private static void target(Expr t, Set<String> writes, Set<String> reads) {
        String p = path(t);
        if (p != null) {
            writes.add(p); // the chain's base is only looked up, not read as a whole
        } else if (t instanceof Expr.Subscript sub) {
            String base = path(sub.value());
            if (base != null) writes.add(base); // an item assignment changes the container
            reads(sub.value(), reads);
            reads(sub.slice(), reads);
        } else if (t instanceof Expr.Tuple tu) {
            tu.elts().forEach(e -> target(e, writes, reads));
        } else if (t instanceof Expr.List l) {
            l.elts().forEach(e -> target(e, writes, reads));
        } else if (t instanceof Expr.Starred st) {
            target(st.value(), writes, reads);
        } else {
            reads(t, reads);
        }
    }

    /** Adds every maximal path the expression reads ({@code self.a.b} once, not {@code self} too). */
    static void reads(Node n, Set<String> out) {
        if (n == null) return;
        if (n instanceof Expr e) {
            String p = path(e);
            if (p != null) {
                out.add(p);
                return;
            }
            if (e instanceof Expr.NamedExpr ne) {
                String t = path(ne.target());
                if (t != null) out.add(t);
            }
        }
        n.forEachChild(c -> reads(c, out));
    }

    /**
     * The member of {@code others} that an assignment to {@code written} affects: the same path, a
     * path inside it ({@code self.cache.x} when {@code self.cache} is assigned), or one holding it
     * ({@code self} read whole when {@code self.cache} is assigned); null when none.
     */
    static String touching(String written, Set<String> others) {
        for (String o : others) {
            if (o.equals(written) || o.startsWith(written + ".") || written.startsWith(o + ".")) return o;
        }
        return null;
    }
}
