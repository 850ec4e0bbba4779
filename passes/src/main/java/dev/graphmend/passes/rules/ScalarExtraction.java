package dev.graphmend.passes.rules;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.model.RuleInfo;
import dev.graphmend.passes.model.Severity;
import dev.graphmend.passes.analysis.FunctionContext;
import dev.graphmend.passes.analysis.Statements;
import java.util.List;

/**
 * GM201: reading a tensor's value back into Python: {@code .item()} (GB0124), {@code .tolist()}
 * (GB0109), {@code int()/float()/bool()} of a tensor (GB0033), {@code torch.equal} (GB0033), and {@code torch._check_tensor_all},
 * which reads its condition with {@code .item()} (GB0124). No source rewrite keeps the
 * meaning; the hint is to keep the value a tensor, or to enable {@code capture_scalar_outputs}.
 */
public final class ScalarExtraction implements Rule {
    static final RuleInfo INFO = new RuleInfo("GM201", "scalar-extraction", List.of("GB0124", "GB0109", "GB0033"),
            Severity.INFORMATION, "A tensor value read back into Python").followingTorchVersion();

    @Override public RuleInfo info() { return INFO; }

    @Override
    public void check(FunctionContext f, Reporter out) {
        for (Stmt s : f.liveStatements()) {
            f.expressions(s).forEach(e -> {
                if (e instanceof Expr.Subscript sub) {
                    for (ImplicitScalarReads.Use u : ImplicitScalarReads.ofSubscript(f, sub)) implicit(out, u);
                    return;
                }
                if (!(e instanceof Expr.Call c)) return;
                for (ImplicitScalarReads.Use u : ImplicitScalarReads.ofCall(f, c)) implicit(out, u);
                if (c.func() instanceof Expr.Attribute a && c.args().isEmpty() && f.value(a.value()).isTensor()) {
                    if (a.attr().equals("item")) {
                        report(out, c, "Tensor.item()", List.of("GB0124"));
                    } else if (a.attr().equals("tolist")) {
                        // GB0109 for float tensors; integer tensors read through _local_scalar_dense (GB0033)
                        report(out, c, "Tensor.tolist()", List.of("GB0109", "GB0033"));
                    }
                    return;
                }
                if (c.func() instanceof Expr.Attribute a && a.attr().equals("equal") && c.args().size() == 1
                        && f.value(a.value()).isTensor()) {
                    equal(out, c, "Tensor.equal()");
                    return;
                }
                String qn = f.qualifiedName(c.func());
                if ("torch.equal".equals(qn) && c.args().size() == 2) { // its signature takes two tensors
                    equal(out, c, "torch.equal()");
                    return;
                }
                if (isTensorCheck(qn, c)) {
                    out.report(INFO, c, "Scalar read: " + qn + "() reads its condition back into Python with .item() "
                            + "to decide whether to raise, so the graph breaks here (GB0124). torch._assert_async(cond.all(), "
                            + "\"message\") checks inside the graph instead.", List.of("GB0124", "GB0033"));
                    return;
                }
                if (("builtins.int".equals(qn) || "builtins.float".equals(qn) || "builtins.bool".equals(qn))
                        && c.args().size() == 1 && f.value(c.args().get(0)).isTensor()) {
                    // torch 2.15 reports these as the .item() they call (GB0124); older releases as GB0033
                    report(out, c, qn.substring(9) + "() of a tensor", List.of("GB0124", "GB0033"));
                }
            });
        }
    }

    /**
     * {@code torch._check_tensor_all(cond)} and its {@code _with} form: the condition must be a
     * tensor (the call raises otherwise), and torch checks it through {@code .item()}.
     */
    private static boolean isTensorCheck(String qn, Expr.Call c) {
        return "torch._check_tensor_all".equals(qn) && !c.args().isEmpty()
                || "torch._check_tensor_all_with".equals(qn) && c.args().size() >= 2;
    }

    private static void equal(Reporter out, Expr.Call c, String what) {
        out.report(INFO, c, "Scalar read: " + what + " compares two tensors' values and returns a Python bool, which "
                + "Dynamo cannot know while tracing, so the graph breaks here (GB0033). Keep the comparison a tensor: "
                + "(a == b).all(), or torch.allclose only outside the compiled code.", List.of("GB0033"));
    }

    private static void implicit(Reporter out, ImplicitScalarReads.Use u) {
        out.report(INFO, u.tensor(), "Scalar read: a tensor is used as a Python number here (" + u.as() + "), so Dynamo "
                + "must read its value, and the graph breaks here (" + u.ids().get(0) + "). Use a shape (x.shape[0], "
                + "x.size(1)) or a Python int, or keep the computation in tensors (masks, torch.where).", u.ids());
    }

    private static void report(Reporter out, Expr.Call c, String what, List<String> ids) {
        out.report(INFO, c, "Scalar read: " + what + " copies a tensor value into Python, which Dynamo cannot trace "
                + "without capture_scalar_outputs, so the graph breaks here (" + ids.get(0) + "). Keep the value a tensor if you can.",
                ids);
    }
}
