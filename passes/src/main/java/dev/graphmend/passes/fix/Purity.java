package dev.graphmend.passes.fix;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.UnaryOperator;
import dev.graphmend.passes.analysis.FunctionContext;
import dev.graphmend.passes.analysis.ValueKind;
import java.util.Set;

/**
 * What predication needs to know of an expression: whether evaluating it when its branch is not
 * taken is harmless (no side effects, no raising beyond what pure tensor math does), whether it
 * can produce inf/NaN (so the unselected branch's gradient may be NaN), whether it is a
 * one-element tensor, and a shape key: two expressions with the same key have the same shape.
 */
final class Purity {
    private Purity() {}

    /** Tensor methods and torch functions that compute a new value from their inputs and nothing else. */
    private static final Set<String> PURE = Set.of(
            "abs", "neg", "exp", "expm1", "log", "log1p", "log2", "log10", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh",
            "sigmoid", "relu", "gelu", "silu", "softplus", "leaky_relu", "elu", "mish", "hardtanh", "clamp", "clip",
            "clamp_min", "clamp_max", "pow", "floor", "ceil", "round", "trunc", "sign", "square", "reciprocal", "erf",
            "nan_to_num", "add", "sub", "mul", "div", "true_divide", "maximum", "minimum", "where", "lerp", "clone",
            "detach", "contiguous", "zeros_like", "ones_like", "full_like", "softmax", "log_softmax", "sum", "mean",
            "max", "min", "amax", "amin", "norm", "prod", "any", "all", "std", "var", "logsumexp", "matmul", "bmm",
            "mm", "transpose", "permute", "reshape", "view", "flatten", "unsqueeze", "squeeze", "expand", "expand_as",
            "masked_fill", "logical_not", "logical_and", "logical_or", "eq", "ne", "gt", "lt", "ge", "le", "isnan",
            "isinf", "isfinite", "float", "double", "half", "bfloat16", "to", "type_as", "cumsum", "flip", "roll",
            "dropout", "layer_norm", "normalize", "addcmul", "addcdiv", "outer", "cat", "stack", "tril", "triu", "t",
            "diagonal", "narrow", "select", "index_select", "gather", "repeat", "tile", "new_zeros", "new_ones",
            "new_full", "bool", "long", "int", "type", "argmax", "argmin", "sort", "topk", "split", "chunk", "unbind",
            "size", "dim", "numel", "isclose", "baddbmm", "einsum", "linear", "scaled_dot_product_attention", "pad",
            "cross_entropy", "mse_loss", "one_hot", "embedding", "cosine_similarity", "cdist");

    /** Shape-preserving elementwise operations: same shape as their first tensor operand. */
    private static final Set<String> ELEMENTWISE = Set.of(
            "abs", "neg", "exp", "expm1", "log", "log1p", "log2", "log10", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh",
            "sigmoid", "relu", "gelu", "silu", "softplus", "leaky_relu", "elu", "mish", "hardtanh", "clamp", "clip",
            "clamp_min", "clamp_max", "pow", "floor", "ceil", "round", "trunc", "sign", "square", "reciprocal", "erf",
            "nan_to_num", "clone", "detach", "contiguous", "zeros_like", "ones_like", "full_like", "softmax",
            "log_softmax", "dropout", "normalize", "cumsum", "flip");

    /** Operations whose value can be inf/NaN on some inputs (so a NaN gradient can leak from an unselected branch). */
    private static final Set<String> RISKY = Set.of("log", "log1p", "log2", "log10", "sqrt", "rsqrt", "reciprocal",
            "pow", "exp", "expm1", "div", "true_divide", "tan", "addcdiv", "logsumexp", "norm");

    /** Reductions that give a 0-d tensor when called without a dim. */
    private static final Set<String> REDUCTIONS = Set.of("sum", "mean", "max", "min", "amax", "amin", "norm", "prod",
            "any", "all", "std", "var", "median", "count_nonzero", "logsumexp");

    /** The first call or operation that makes {@code e} impure, or null when evaluating it is harmless. */
    static String impurity(FunctionContext f, Expr e) {
        String[] found = {null};
        visit(e, n -> {
            if (found[0] != null) return;
            if (n instanceof Expr.NamedExpr) found[0] = "an assignment expression";
            else if (n instanceof Expr.Await || n instanceof Expr.Yield || n instanceof Expr.YieldFrom) found[0] = "a yield";
            else if (n instanceof Expr.Lambda) found[0] = "a lambda";
            else if (n instanceof Expr.Call c && !isPureCall(f, c)) found[0] = "a call of " + calleeText(c);
        });
        return found[0];
    }

    private static boolean isPureCall(FunctionContext f, Expr.Call c) {
        for (var k : c.keywords()) if (k.arg() == null) return false;
        for (Expr a : c.args()) if (a instanceof Expr.Starred) return false;
        String name = null;
        if (c.func() instanceof Expr.Attribute a && f.value(a.value()).isTensor()) {
            name = a.attr(); // a tensor method
        } else {
            String qn = f.qualifiedName(c.func());
            if (qn != null && (qn.startsWith("torch.nn.functional.") || qn.startsWith("torch.") && qn.indexOf('.', 6) < 0)) {
                name = qn.substring(qn.lastIndexOf('.') + 1);
            }
        }
        return name != null && !name.endsWith("_") && PURE.contains(name);
    }

    static String calleeText(Expr.Call c) {
        Expr fn = c.func();
        if (fn instanceof Expr.Name n) return n.id() + "()";
        if (fn instanceof Expr.Attribute a) return (a.value() instanceof Expr.Name n ? n.id() + "." : "….") + a.attr() + "()";
        return "a computed callee";
    }

    /** The first operation in {@code e} that can produce inf/NaN, or null. */
    static String risk(FunctionContext f, Expr e) {
        String[] found = {null};
        visit(e, n -> {
            if (found[0] != null) return;
            if (n instanceof Expr.BinOp b) {
                switch (b.op()) {
                    case Div: found[0] = "a division"; return;
                    case FloorDiv: found[0] = "a floor division"; return;
                    case Pow: found[0] = "a power"; return;
                    case Mod: found[0] = "a remainder"; return;
                    default: return;
                }
            }
            if (n instanceof Expr.Call c) {
                String name = c.func() instanceof Expr.Attribute a ? a.attr()
                        : c.func() instanceof Expr.Name nm ? nm.id() : null;
                if (name != null && RISKY.contains(name)) found[0] = name + "()";
            }
        });
        return found[0];
    }

    /** Whether a condition is provably a one-element tensor (a 0-d reduction, a comparison of such, …). */
    static boolean isOneElement(FunctionContext f, Expr e) {
        return isOneElement(f, e, 0);
    }

    private static boolean isOneElement(FunctionContext f, Expr e, int depth) {
        if (depth > 4) return false;
        if (e instanceof Expr.Constant) return true;
        if (e instanceof Expr.Name n) {
            java.util.List<Expr> vs = f.assignedValues(n);
            if (vs != null && !vs.isEmpty()) return vs.stream().allMatch(v -> isOneElement(f, v, depth + 1));
        }
        ValueKind k = f.kind(e);
        if (k == ValueKind.STATIC) return true;
        if (e instanceof Expr.Compare c) {
            if (!isOneElement(f, c.left(), depth)) return false;
            for (Expr x : c.comparators()) if (!isOneElement(f, x, depth)) return false;
            return true;
        }
        if (e instanceof Expr.BinOp b) return isOneElement(f, b.left(), depth) && isOneElement(f, b.right(), depth);
        if (e instanceof Expr.UnaryOp u) return isOneElement(f, u.operand(), depth);
        if (e instanceof Expr.BoolOp b) return b.values().stream().allMatch(v -> isOneElement(f, v, depth));
        if (e instanceof Expr.Call c) {
            boolean noDim = c.keywords().stream().noneMatch(kw -> "dim".equals(kw.arg()) || "keepdim".equals(kw.arg()));
            if (c.func() instanceof Expr.Attribute a && f.value(a.value()).isTensor()) {
                if (REDUCTIONS.contains(a.attr()) && c.args().isEmpty() && noDim) return true;
                if (a.attr().equals("item")) return true;
                if (ELEMENTWISE.contains(a.attr()) || a.attr().equals("float") || a.attr().equals("bool")) {
                    return isOneElement(f, a.value(), depth);
                }
                return false;
            }
            String qn = f.qualifiedName(c.func());
            if (qn != null && qn.startsWith("torch.")) {
                String name = qn.substring(qn.lastIndexOf('.') + 1);
                if (REDUCTIONS.contains(name) && c.args().size() == 1 && noDim) return true;
                if ((ELEMENTWISE.contains(name) || name.startsWith("is") || name.startsWith("logical_")) && !c.args().isEmpty()) {
                    return c.args().stream().allMatch(x -> isOneElement(f, x, depth));
                }
            }
        }
        return false;
    }

    private static final Set<String> DTYPE_CHANGES = Set.of("float", "double", "half", "bfloat16", "long", "int", "bool",
            "to", "type", "type_as", "short", "byte", "char");

    /** The first dtype-changing call in {@code e} ({@code x.half()}), or null. */
    static String dtypeChange(FunctionContext f, Expr e) {
        String[] found = {null};
        visit(e, n -> {
            if (found[0] == null && n instanceof Expr.Call c && c.func() instanceof Expr.Attribute a
                    && DTYPE_CHANGES.contains(a.attr()) && f.value(a.value()).isTensor()) {
                found[0] = "." + a.attr() + "()";
            }
        });
        return found[0];
    }

    /** Marker key of a 0-d tensor (a reduction without dims). */
    static final String ZERO_D = "<0-d>";

    /** Marker key of a Python number: broadcasts to any shape. */
    static final String SCALAR = "<number>";

    /**
     * A key for the shape of a tensor expression: equal keys, equal shapes (the expressions are
     * elementwise functions of the same tensor); {@link #SCALAR} for a number; null when unknown.
     */
    static String shapeKey(FunctionContext f, Expr e, SourceText src) {
        if (e instanceof Expr.Constant c) return c.value() instanceof Number || c.value() instanceof java.math.BigInteger ? SCALAR : null;
        if (e instanceof Expr.UnaryOp u && u.op() != UnaryOperator.Not) return shapeKey(f, u.operand(), src);
        if (e instanceof Expr.IfExp ie) { // a nested conditional: its own where comes in a later round
            String a = shapeKey(f, ie.body(), src), b = shapeKey(f, ie.orelse(), src);
            return a != null && a.equals(b) ? a : null;
        }
        ValueKind k = f.kind(e);
        if (!k.isTensor()) return k == ValueKind.STATIC && f.value(e).kind() == ValueKind.STATIC && isNumberish(e) ? SCALAR : null;
        if (e instanceof Expr.Name || e instanceof Expr.Attribute) return src.text(e);
        if (e instanceof Expr.BinOp b) {
            if (b.op() == dev.graphmend.ir.ast.Operator.MatMult) return null;
            String l = operandKey(f, b.left(), src), r = operandKey(f, b.right(), src);
            if (l == null || r == null) return null;
            if (l.equals(SCALAR)) return r.startsWith("~") ? null : r;
            if (r.equals(SCALAR) || l.equals(r)) return l.startsWith("~") ? null : l;
            // x - x.amax(dim, keepdim=True): the kept-dims reduction broadcasts back to x's shape
            if (r.equals("~" + l)) return l;
            if (l.equals("~" + r)) return r;
            return null;
        }
        if (e instanceof Expr.Call c) {
            if (isZeroD(f, c)) return ZERO_D;
            if (c.func() instanceof Expr.Attribute a && f.value(a.value()).isTensor() && REDUCTIONS.contains(a.attr())
                    && c.keywords().stream().anyMatch(kw -> "keepdim".equals(kw.arg()) && kw.value() instanceof Expr.Constant kc
                            && Boolean.TRUE.equals(kc.value()))) {
                String base = shapeKey(f, a.value(), src);
                return base == null || base.startsWith("~") ? null : "~" + base; // broadcasts to base's shape
            }
            if (c.func() instanceof Expr.Attribute a && f.value(a.value()).isTensor() && ELEMENTWISE.contains(a.attr())) {
                for (Expr x : c.args()) {
                    String xk = shapeKey(f, x, src);
                    if (xk == null) return null;
                    if (!xk.equals(SCALAR) && !xk.equals(shapeKey(f, a.value(), src))) return null;
                }
                return shapeKey(f, a.value(), src);
            }
            String qn = f.qualifiedName(c.func());
            if (qn != null && qn.startsWith("torch.") && !c.args().isEmpty()
                    && ELEMENTWISE.contains(qn.substring(qn.lastIndexOf('.') + 1))) {
                String first = shapeKey(f, c.args().get(0), src);
                for (Expr x : c.args().subList(1, c.args().size())) {
                    String xk = shapeKey(f, x, src);
                    if (xk == null || !xk.equals(SCALAR) && !xk.equals(first)) return null;
                }
                return first;
            }
        }
        return null;
    }

    /** A reduction over all elements: {@code x.sum()}, {@code torch.max(x)}. */
    private static boolean isZeroD(FunctionContext f, Expr.Call c) {
        boolean noDim = c.keywords().isEmpty();
        if (c.func() instanceof Expr.Attribute a && f.value(a.value()).isTensor()) {
            return REDUCTIONS.contains(a.attr()) && c.args().isEmpty() && noDim;
        }
        String qn = f.qualifiedName(c.func());
        return qn != null && qn.startsWith("torch.") && REDUCTIONS.contains(qn.substring(qn.lastIndexOf('.') + 1))
                && c.args().size() == 1 && noDim;
    }

    /**
     * An operand of arithmetic: a Python value Dynamo treats as static (a config number,
     * finfo.min) and a 0-d tensor count as numbers, which broadcast to the other operand's shape.
     */
    private static String operandKey(FunctionContext f, Expr e, SourceText src) {
        String k = shapeKey(f, e, src);
        if (ZERO_D.equals(k)) return SCALAR;
        if (k == null && f.kind(e) == ValueKind.STATIC && !(e instanceof Expr.Tuple || e instanceof Expr.List)) return SCALAR;
        return k;
    }

    private static boolean isNumberish(Expr e) {
        return e instanceof Expr.Constant c && (c.value() instanceof Number || c.value() instanceof java.math.BigInteger)
                || e instanceof Expr.UnaryOp u && isNumberish(u.operand());
    }

    private static void visit(Node n, java.util.function.Consumer<Node> v) {
        v.accept(n);
        n.forEachChild(c -> visit(c, v));
    }
}
