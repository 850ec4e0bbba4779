package dev.graphmend.passes.rules;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.ast.UnaryOperator;
import dev.graphmend.passes.analysis.FunctionContext;

/** Truth tests: when taking an expression's truth value makes Dynamo read tensor data. */
final class Conditions {
    private Conditions() {}

    /**
     * Whether {@code bool(test)} depends on tensor values: the test is a tensor, or an
     * {@code and}/{@code or}/{@code not} over one.
     */
    static boolean isDataDependent(FunctionContext f, Expr test) {
        if (test instanceof Expr.BoolOp b) {
            for (Expr v : b.values()) if (isDataDependent(f, v)) return true;
            return false;
        }
        if (test instanceof Expr.UnaryOp u && u.op() == UnaryOperator.Not) return isDataDependent(f, u.operand());
        if (test instanceof Expr.NamedExpr ne) return isDataDependent(f, ne.value());
        return f.value(test).isTensor();
    }

    /** {@code if <test>: raise ...} with nothing else in the body and no else branch: a validation guard. */
    static boolean isGuard(Stmt.If i) {
        return i.orelse().isEmpty() && i.body().size() == 1 && i.body().get(0) instanceof Stmt.Raise;
    }
}
