package dev.graphmend.passes.rules;

import dev.graphmend.ir.ast.Comprehension;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.ast.UnaryOperator;
import dev.graphmend.passes.model.RuleInfo;
import dev.graphmend.passes.model.Severity;
import dev.graphmend.passes.analysis.FunctionContext;
import dev.graphmend.passes.analysis.Statements;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * GM101: {@code if}/{@code elif}/{@code while}, a conditional expression, or {@code and}/{@code or}/{@code not}
 * whose truth value depends on tensor values. Dynamo cannot know which way to go when it traces,
 * so it ends the graph there (GB0170). Guards ({@code if cond: raise}) are GM103's; {@code assert t}
 * is not a break (Dynamo lowers it to an async assert itself), but {@code assert a and b} over
 * tensors branches on {@code a} first.
 */
public final class DataDependentBranch implements Rule {
    static final RuleInfo INFO = new RuleInfo("GM101", "data-dependent-branch", List.of("GB0170", "GB0033"), Severity.WARNING,
            "A branch on a tensor's value").followingTorchVersion();

    /** and/or/not used as values: Dynamo reads the scalar (GB0033) rather than jumping on it (GB0170). */
    private static final List<String> VALUE_POSITION_IDS = List.of("GB0033", "GB0170");

    @Override public RuleInfo info() { return INFO; }

    @Override
    public void check(FunctionContext f, Reporter out) {
        Set<Node> handled = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Stmt s : f.liveStatements()) {
            if (s instanceof Stmt.If i) {
                if (!Conditions.isGuard(i) && !isCompilingTest(f, i.test())) test(f, i.test(), "if", handled, out);
                else markChain(i.test(), handled);
            } else if (s instanceof Stmt.While w) {
                test(f, w.test(), "while", handled, out);
            } else if (s instanceof Stmt.Assert a) {
                // Dynamo turns `assert tensor` into an async assert, but `assert a and b` first
                // jumps on `a`: every operand of and/or but the last is a branch (GB0170)
                if (a.test() instanceof Expr.BoolOp b && anyButLastDataDependent(f, b)) {
                    out.report(INFO, b, message("`" + (b.op() == dev.graphmend.ir.ast.BoolOperator.And ? "and" : "or")
                            + "` in an assert"), List.of("GB0170"));
                }
                markChain(a.test(), handled);
            }
            f.expressions(s).forEach(e -> {
                if (handled.contains(e)) return;
                if (e instanceof Expr.IfExp ie) {
                    test(f, ie.test(), "conditional expression", handled, out);
                } else if (e instanceof Expr.ListComp || e instanceof Expr.SetComp || e instanceof Expr.DictComp
                        || e instanceof Expr.GeneratorExp) {
                    e.forEachChild(c -> {
                        if (c instanceof Comprehension comp) {
                            for (Expr cond : comp.ifs()) test(f, cond, "comprehension condition", handled, out);
                        }
                    });
                } else if (e instanceof Expr.BoolOp b) {
                    // in a value position only the operands before the last are tested
                    markChain(b, handled);
                    for (int k = 0; k < b.values().size() - 1; k++) {
                        if (Conditions.isDataDependent(f, b.values().get(k))) {
                            out.report(INFO, b, message("`" + (b.op() == dev.graphmend.ir.ast.BoolOperator.And ? "and" : "or") + "`")
                                    + Conditions.tensorOnSomePaths(f, b) + Conditions.numpyNote(f, b), VALUE_POSITION_IDS);
                            return;
                        }
                    }
                } else if (e instanceof Expr.UnaryOp u && u.op() == UnaryOperator.Not) {
                    if (handled.contains(u)) return;
                    markChain(u, handled);
                    // `not t` used as a value: torch 2.15 reports the scalar read (GB0033); torch 2.10
                    // traces it without a break (observed with the Dynamo oracle, fixtures/torch_2_10.py)
                    if (Conditions.isDataDependent(f, u) && !f.config().torchBefore(2, 11)) {
                        out.report(INFO, u, message("`not`"), VALUE_POSITION_IDS);
                    }
                }
            });
        }
    }

    private static boolean anyButLastDataDependent(FunctionContext f, Expr.BoolOp b) {
        for (int k = 0; k < b.values().size() - 1; k++) if (Conditions.isDataDependent(f, b.values().get(k))) return true;
        return false;
    }

    private static boolean isCompilingTest(FunctionContext f, Expr test) {
        return Statements.guardPolarity(test, f::isCompilingCall) != 0;
    }

    private static void test(FunctionContext f, Expr cond, String what, Set<Node> handled, Reporter out) {
        if (handled.contains(cond)) return;
        markChain(cond, handled);
        if (decidedStatically(f, cond)) return;
        if (Conditions.isDataDependent(f, cond)) out.report(INFO, cond, message(what) + Conditions.onlyWhen(f, cond)
                + Conditions.tensorOnSomePaths(f, cond) + Conditions.numpyNote(f, cond), List.of("GB0170"));
    }

    /**
     * Whether Python's short circuit decides the condition on a value Dynamo knows before any
     * tensor is tested: {@code torch.jit.is_scripting() and x.sum() > 0} never evaluates the tensor
     * test while compiling (is_scripting() is False there), so it does not break.
     */
    private static boolean decidedStatically(FunctionContext f, Expr cond) {
        if (!(cond instanceof Expr.BoolOp b)) return f.staticTruth(cond) != null;
        boolean and = b.op() == dev.graphmend.ir.ast.BoolOperator.And;
        for (Expr operand : b.values()) {
            Boolean t = f.staticTruth(operand);
            if (t != null && t != and) return true;
            if (Conditions.isDataDependent(f, operand)) return false;
        }
        return false;
    }

    private static String message(String what) {
        return "Data-dependent branch: this " + what + " takes the truth value of a tensor, which Dynamo does not know "
                + "while tracing, so the graph breaks here (GB0170). Rewrite with torch.where or torch.cond to keep one graph.";
    }

    /** The test and the and/or/not nodes it is made of, so they are judged once, as one condition. */
    private static void markChain(Expr e, Set<Node> handled) {
        handled.add(e);
        if (e instanceof Expr.BoolOp b) for (Expr v : b.values()) markChain(v, handled);
        else if (e instanceof Expr.UnaryOp u && u.op() == UnaryOperator.Not) markChain(u.operand(), handled);
    }
}
