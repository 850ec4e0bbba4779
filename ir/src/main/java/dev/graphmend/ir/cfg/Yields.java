package dev.graphmend.ir.cfg;

import dev.graphmend.ir.ast.Comprehension;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;

/** Finds {@code yield} / {@code yield from} in a simple statement, not looking into nested scopes. */
final class Yields {
    private Yields() {}

    static boolean containsYield(Stmt s) {
        if (s instanceof Stmt.FunctionDef || s instanceof Stmt.AsyncFunctionDef || s instanceof Stmt.ClassDef) {
            return false; // a yield in a decorator or default would be odd; the bodies are other scopes
        }
        return scan(s);
    }

    private static boolean scan(Node n) {
        if (n instanceof Expr.Yield || n instanceof Expr.YieldFrom) return true;
        if (n instanceof Expr.Lambda || n instanceof Comprehension || n instanceof Expr.ListComp
                || n instanceof Expr.SetComp || n instanceof Expr.DictComp || n instanceof Expr.GeneratorExp) {
            return false;
        }
        boolean[] found = {false};
        n.forEachChild(c -> {
            if (!found[0] && scan(c)) found[0] = true;
        });
        return found[0];
    }
}
