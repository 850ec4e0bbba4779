package dev.graphmend.passes.rules;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.ExprContext;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.model.RuleInfo;
import dev.graphmend.passes.model.Severity;
import dev.graphmend.passes.analysis.FunctionContext;
import dev.graphmend.passes.analysis.Statements;
import dev.graphmend.passes.analysis.ValueKind;
import java.util.List;
import java.util.Set;

/**
 * GM202: operators whose output shape depends on tensor values ({@code nonzero}, {@code unique},
 * {@code masked_select}, boolean-mask indexing, one-argument {@code torch.where},
 * {@code repeat_interleave} without {@code output_size}, {@code one_hot} without {@code num_classes}).
 * Dynamo breaks unless {@code capture_dynamic_output_shape_ops} is set (GB0036, GB0246).
 */
public final class DynamicShapeOp implements Rule {
    static final RuleInfo INFO = new RuleInfo("GM202", "dynamic-shape-op", List.of("GB0036", "GB0246"),
            Severity.INFORMATION, "An operator whose output shape depends on tensor values");

    private static final Set<String> OPS = Set.of("nonzero", "unique", "unique_consecutive", "masked_select", "argwhere", "bincount");

    @Override public RuleInfo info() { return INFO; }

    @Override
    public void check(FunctionContext f, Reporter out) {
        for (Stmt s : f.liveStatements()) {
            // `x[mask] += y` reads x[mask] first: a mask selection (plain `x[mask] = y` is index_put_, static)
            if (s instanceof Stmt.AugAssign a && a.target() instanceof Expr.Subscript sub
                    && f.value(sub.value()).isTensor() && masked(f, sub.slice())) {
                report(out, sub, "an augmented assignment through a boolean mask (it reads x[mask])", "GB0036");
            }
            f.expressions(s).forEach(e -> {
                if (e instanceof Expr.Call c) call(f, c, out);
                else if (e instanceof Expr.Subscript sub && sub.ctx() == ExprContext.Load
                        && f.value(sub.value()).isTensor() && masked(f, sub.slice())) {
                    report(out, sub, "indexing with a boolean mask", "GB0036");
                }
            });
        }
    }

    private static void call(FunctionContext f, Expr.Call c, Reporter out) {
        String qn = f.qualifiedName(c.func());
        if (c.func() instanceof Expr.Attribute a && f.value(a.value()).isTensor()) {
            if (OPS.contains(a.attr())) report(out, c, "Tensor." + a.attr() + "()", "GB0036");
            else if (a.attr().equals("repeat_interleave") && dynamicRepeats(f, c, 0)) {
                report(out, c, "Tensor.repeat_interleave() without output_size", "GB0036");
            }
            return;
        }
        if (qn == null || !qn.startsWith("torch.")) return;
        String op = qn.substring(6);
        if (OPS.contains(op)) report(out, c, "torch." + op + "()", "GB0036");
        else if (op.equals("where") && c.args().size() == 1 && c.keywords().isEmpty()) {
            report(out, c, "one-argument torch.where()", "GB0036");
        } else if (op.equals("repeat_interleave") && dynamicRepeats(f, c, 1)) {
            report(out, c, "torch.repeat_interleave() without output_size", "GB0036");
        } else if (qn.equals("torch.nn.functional.one_hot") && c.args().size() < 2 && keyword(c, "num_classes") == null) {
            report(out, c, "F.one_hot() without num_classes", "GB0246");
        }
    }

    /** A boolean mask as the index, or as one part of it ({@code edge_index[:, mask]}, PyG's self-loop removal). */
    private static boolean masked(FunctionContext f, Expr slice) {
        if (slice instanceof Expr.Tuple t) {
            for (Expr part : t.elts()) if (isMask(f, part)) return true;
            return false;
        }
        return isMask(f, slice);
    }

    /**
     * A boolean tensor, or a tensor whose name says it is a mask ({@code mask}, {@code node_mask},
     * a parameter annotated only {@code Tensor}): an index tensor of integers is named for what it
     * indexes ({@code idx}, {@code perm}), and a mask used as an index selects (docs/rules/GM202.md).
     */
    private static boolean isMask(FunctionContext f, Expr index) {
        ValueKind k = f.kind(index);
        if (k == ValueKind.BOOL_TENSOR) return true;
        return index instanceof Expr.Name n && (n.id().equals("mask") || n.id().endsWith("_mask")) && f.value(index).isTensor()
                && !n.id().endsWith("attention_mask");
    }

    /** Repeats given as a tensor (position {@code at}) and no {@code output_size}. */
    private static boolean dynamicRepeats(FunctionContext f, Expr.Call c, int at) {
        // output_size=None, or a parameter its callers leave at None (PyG's ptr2index): not given
        Expr size = keyword(c, "output_size");
        if (size != null && f.value(size).kind() != ValueKind.NONE) return false;
        Expr repeats = c.args().size() > at ? c.args().get(at) : keyword(c, "repeats");
        return repeats != null && f.value(repeats).isTensor();
    }

    private static boolean hasKeyword(Expr.Call c, String name, boolean dflt) {
        Expr k = keyword(c, name);
        return k == null ? dflt : k instanceof Expr.Constant kc && Boolean.TRUE.equals(kc.value());
    }

    private static Expr keyword(Expr.Call c, String name) {
        for (var k : c.keywords()) if (name.equals(k.arg())) return k.value();
        return null;
    }

    private static void report(Reporter out, Expr at, String what, String id) {
        out.report(INFO, at, "Dynamic output shape: " + what + " produces a tensor whose size depends on tensor values; "
                + "Dynamo breaks here unless capture_dynamic_output_shape_ops is set (" + id + ").", List.of(id));
    }
}
