package dev.graphmend.passes.rules;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Keyword;
import dev.graphmend.passes.analysis.FunctionContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where a tensor stands in for a Python int and Dynamo has to read its value (part of GM201):
 * a size, count or bound given to a torch function or tensor method ({@code torch.arange(n)},
 * {@code x.view(n, -1)}, {@code F.pad(x, (0, n))}: {@code aten._local_scalar_dense}, GB0033 on
 * torch 2.15), a slice bound ({@code x[:, :n]}) and {@code range(n)} (both read through
 * {@code .item()}, GB0124). Observed with the Dynamo oracle on the fixtures of GM201.py; a
 * shape ({@code x.shape[0]}, {@code x.size(1)}) is a Python int and reads nothing.
 */
final class ImplicitScalarReads {
    private ImplicitScalarReads() {}

    /** One use: the tensor expression, what it is used as, and the ids Dynamo reports there. */
    record Use(Expr tensor, String as, List<String> ids) {}

    private static final List<String> SIZE_IDS = List.of("GB0033", "GB0124");
    private static final List<String> ITEM_IDS = List.of("GB0124", "GB0033");

    /** Every positional argument (and the {@code size} keyword) is a size or a bound. */
    private static final Set<String> ALL_ARGS = Set.of("torch.zeros", "torch.ones", "torch.empty", "torch.rand",
            "torch.randn", "torch.eye", "torch.arange", "torch.randint", "torch.randperm");

    /**
     * Functions with the positions (0-based) and keywords that take sizes; a tuple or list there
     * is judged element by element.
     */
    private static final Map<String, Sizes> FUNCTIONS = Map.ofEntries(
            Map.entry("torch.full", new Sizes(Set.of(0), Set.of("size"))),
            Map.entry("torch.linspace", new Sizes(Set.of(2), Set.of("steps"))),
            Map.entry("torch.logspace", new Sizes(Set.of(2), Set.of("steps"))),
            Map.entry("torch.narrow", new Sizes(Set.of(1, 2, 3), Set.of("start", "length"))),
            Map.entry("torch.split", new Sizes(Set.of(1), Set.of("split_size_or_sections"))),
            Map.entry("torch.chunk", new Sizes(Set.of(1), Set.of("chunks"))),
            Map.entry("torch.topk", new Sizes(Set.of(1), Set.of("k"))),
            Map.entry("torch.reshape", new Sizes(Set.of(1), Set.of("shape"))),
            Map.entry("torch.nn.functional.pad", new Sizes(Set.of(1), Set.of("pad"))),
            Map.entry("torch.nn.functional.interpolate", new Sizes(Set.of(1), Set.of("size"))),
            Map.entry("torch.nn.functional.one_hot", new Sizes(Set.of(1), Set.of("num_classes"))));

    /** Tensor methods whose every positional argument is a size. */
    private static final Set<String> ALL_ARGS_METHODS = Set.of("view", "reshape", "expand", "repeat", "tile",
            "new_zeros", "new_ones", "new_empty", "narrow", "unflatten");

    private static final Map<String, Sizes> METHODS = Map.ofEntries(
            Map.entry("new_full", new Sizes(Set.of(0), Set.of("size"))),
            Map.entry("split", new Sizes(Set.of(0), Set.of("split_size"))),
            Map.entry("chunk", new Sizes(Set.of(0), Set.of("chunks"))),
            Map.entry("topk", new Sizes(Set.of(0), Set.of("k"))));

    private record Sizes(Set<Integer> positions, Set<String> keywords) {}

    /**
     * Scalars given as keywords to any torch op or tensor method: the multipliers of
     * {@code add}/{@code sub}/{@code addmm}/{@code _foreach_add_} ({@code alpha=}, {@code beta=}),
     * {@code addcmul}/{@code addcdiv}'s {@code value=} and a dimension ({@code dim=}). Dynamo
     * reads a tensor there (GB0033, observed on torch 2.15, fixtures/GM201.py); a tensor
     * {@code fill_value} or clamp bound stays in the graph.
     */
    private static final Set<String> SCALAR_KEYWORDS = Set.of("alpha", "beta", "dim", "dim0", "dim1");

    /** Tensor methods whose first positional argument is a dimension ({@code x.sum(d)}, {@code x.unsqueeze(d)}). */
    private static final Set<String> DIM_FIRST_METHODS = Set.of("sum", "mean", "unsqueeze", "squeeze", "softmax",
            "log_softmax", "cumsum", "cumprod", "argmax", "argmin", "logsumexp", "amax", "amin", "std", "var", "prod",
            "transpose", "movedim", "select", "index_select", "gather", "flatten");

    /** torch functions whose second positional argument is a dimension ({@code torch.cat(xs, d)}). */
    private static final Set<String> DIM_SECOND_FUNCTIONS = Set.of("torch.cat", "torch.concat", "torch.stack",
            "torch.sum", "torch.mean", "torch.unsqueeze", "torch.squeeze", "torch.softmax", "torch.log_softmax",
            "torch.cumsum", "torch.cumprod", "torch.argmax", "torch.argmin", "torch.logsumexp", "torch.amax",
            "torch.amin", "torch.transpose", "torch.movedim", "torch.select", "torch.index_select", "torch.gather",
            "torch.nn.functional.softmax", "torch.nn.functional.log_softmax");

    /** {@code addcmul}/{@code addcdiv} and their foreach forms take their multiplier as {@code value=}. */
    private static boolean takesValueScalar(String name) {
        return name.endsWith("addcmul") || name.endsWith("addcmul_") || name.endsWith("addcdiv") || name.endsWith("addcdiv_");
    }

    /** The implicit reads a call makes of its arguments. */
    static List<Use> ofCall(FunctionContext f, Expr.Call c) {
        List<Use> out = new ArrayList<>();
        if (c.func() instanceof Expr.Attribute a && f.value(a.value()).isTensor()) {
            String what = "an argument of Tensor." + a.attr() + "()";
            if (ALL_ARGS_METHODS.contains(a.attr())) {
                for (Expr arg : c.args()) sizes(f, arg, what, out);
                keywords(f, c, Set.of("size", "sizes", "shape"), what, out);
            } else if (METHODS.containsKey(a.attr())) {
                at(f, c, METHODS.get(a.attr()), what, out);
            }
            if (DIM_FIRST_METHODS.contains(a.attr()) && !c.args().isEmpty()) scalar(f, c.args().get(0), what, out);
            scalarKeywords(f, c, "Tensor." + a.attr(), out);
            return out;
        }
        String qn = f.qualifiedName(c.func());
        if (qn == null) return out;
        if (qn.startsWith("torch.")) {
            String what = "an argument of " + qn + "()";
            if (DIM_SECOND_FUNCTIONS.contains(qn) && c.args().size() > 1) scalar(f, c.args().get(1), what, out);
            scalarKeywords(f, c, qn, out);
        }
        if ("builtins.range".equals(qn)) {
            for (Expr arg : c.args()) {
                if (f.value(arg).isTensor()) out.add(new Use(arg, "a bound of range()", ITEM_IDS));
            }
        } else if (ALL_ARGS.contains(qn)) {
            String what = "a size of " + qn + "()";
            for (Expr arg : c.args()) sizes(f, arg, what, out);
            keywords(f, c, Set.of("size", "start", "end", "step", "n", "m", "high", "low"), what, out);
        } else if (FUNCTIONS.containsKey(qn)) {
            at(f, c, FUNCTIONS.get(qn), "a size of " + qn + "()", out);
        }
        return out;
    }

    /** The tensor bounds of a subscript's slices ({@code x[:, :n]}). */
    static List<Use> ofSubscript(FunctionContext f, Expr.Subscript s) {
        List<Use> out = new ArrayList<>();
        List<Expr> parts = s.slice() instanceof Expr.Tuple t ? t.elts() : List.of(s.slice());
        for (Expr p : parts) {
            if (!(p instanceof Expr.Slice sl)) continue;
            for (Expr bound : new Expr[] {sl.lower(), sl.upper(), sl.step()}) {
                // a graph input as a bound: read while tracing on torch 2.10, through .item() on 2.15
                if (bound != null && f.value(bound).isTensor() && (!f.value(bound).input() || !f.config().torchBefore(2, 15))) {
                    out.add(new Use(bound, "a slice bound", ITEM_IDS));
                }
            }
        }
        return out;
    }

    private static void at(FunctionContext f, Expr.Call c, Sizes sizes, String what, List<Use> out) {
        for (int i = 0; i < c.args().size(); i++) {
            if (sizes.positions().contains(i)) sizes(f, c.args().get(i), what, out);
        }
        keywords(f, c, sizes.keywords(), what, out);
    }

    private static void keywords(FunctionContext f, Expr.Call c, Set<String> names, String what, List<Use> out) {
        for (Keyword k : c.keywords()) {
            if (k.arg() != null && names.contains(k.arg())) sizes(f, k.value(), what, out);
        }
    }

    /**
     * Ops Dynamo rewrites so a tensor multiplier stays in the graph (torch 2.15: fused
     * multiply-add for {@code Tensor.add_}, {@code addcmul_}, {@code addcdiv_}, and a
     * decomposition of {@code torch.addcdiv}; observed with the Dynamo oracle, fixtures/GM201.py:
     * nanochat's AdamW step). {@code sub_}, {@code add} and the foreach ops still read it.
     */
    private static final Set<String> TENSOR_SCALAR_REWRITTEN = Set.of("Tensor.add_", "Tensor.addcmul_", "Tensor.addcdiv_",
            "torch.addcdiv");

    /** The scalar keywords of a call of {@code callee} ({@code Tensor.add}, {@code torch._foreach_add_}). */
    private static void scalarKeywords(FunctionContext f, Expr.Call c, String callee, List<Use> out) {
        if (TENSOR_SCALAR_REWRITTEN.contains(callee)) return;
        for (Keyword k : c.keywords()) {
            if (k.arg() != null && (SCALAR_KEYWORDS.contains(k.arg()) || k.arg().equals("value") && takesValueScalar(callee))) {
                scalar(f, k.value(), k.arg() + "= of " + callee + "()", out);
            }
        }
    }

    /** One scalar argument (a number or a dimension, not a sequence): a tensor there is read. */
    private static void scalar(FunctionContext f, Expr arg, String what, List<Use> out) {
        if (arg instanceof Expr.UnaryOp u && u.op() == dev.graphmend.ir.ast.UnaryOperator.USub) arg = u.operand();
        if (!(arg instanceof Expr.Starred) && f.value(arg).isTensor() && !f.value(arg).input()) out.add(new Use(arg, what, SIZE_IDS));
    }

    /** A size argument, or each element of a tuple or list of sizes. */
    private static void sizes(FunctionContext f, Expr arg, String what, List<Use> out) {
        if (arg instanceof Expr.Tuple t) {
            for (Expr e : t.elts()) sizes(f, e, what, out);
        } else if (arg instanceof Expr.List l) {
            for (Expr e : l.elts()) sizes(f, e, what, out);
        } else if (!(arg instanceof Expr.Starred) && f.value(arg).isTensor() && !f.value(arg).input()) {
            // a graph input (computed before a break, a buffer) Dynamo reads while tracing: no break
            out.add(new Use(arg, what, SIZE_IDS));
        }
    }
}
