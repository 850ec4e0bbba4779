package dev.graphmend.passes.analysis;

import dev.graphmend.ir.ast.BoolOperator;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.ast.UnaryOperator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The contexts a compiled module runs in, as a set of bits: its mode, eval or train
 * ({@code nn.Module.training}), times its dtype, float32 or half precision (float16/bfloat16); and
 * in which of them each statement of a function runs as far as its {@code self.training} and
 * {@code x.dtype == torch.float16} tests decide (docs/compile-regions.md, "Modes"). Dynamo
 * specializes on both: the branch a root's context does not take is never traced, so a break there
 * is no break of that root.
 */
public final class Modes {
    private Modes() {}

    private static final int EVAL_FP32 = 1, TRAIN_FP32 = 2, EVAL_HALF = 4, TRAIN_HALF = 8;
    /** Eval mode, either dtype. */
    public static final int EVAL = EVAL_FP32 | EVAL_HALF;
    /** Train mode, either dtype. */
    public static final int TRAIN = TRAIN_FP32 | TRAIN_HALF;
    /** Float32 (a module's parameters when built), either mode. */
    public static final int FP32 = EVAL_FP32 | TRAIN_FP32;
    /** Half precision (float16 or bfloat16), either mode. */
    public static final int HALF = EVAL_HALF | TRAIN_HALF;
    /** Every context: what is not known. */
    public static final int BOTH = EVAL | TRAIN;

    /** "eval", "train", or "eval and train": the modes among the contexts. */
    public static String describe(int modes) {
        boolean eval = (modes & EVAL) != 0, train = (modes & TRAIN) != 0;
        return eval && train ? "eval and train" : eval ? "eval" : train ? "train" : "no mode";
    }

    /**
     * The dtype context a spelled dtype gives: {@code torch.float16}, {@code torch.half},
     * {@code torch.bfloat16} → {@link #HALF}; {@code torch.float32}, {@code torch.float} →
     * {@link #FP32}; 0 for anything else.
     */
    public static int dtypeNamed(Expr e) {
        if (!(e instanceof Expr.Attribute a) || !(a.value() instanceof Expr.Name n) || !n.id().equals("torch")) return 0;
        return switch (a.attr()) {
            case "float16", "half", "bfloat16" -> HALF;
            case "float32", "float" -> FP32;
            default -> 0;
        };
    }

    /**
     * The modes each statement of {@code def}'s body (nested blocks included, nested functions
     * not) runs in, where fewer than both: under {@code if self.training:}, its {@code else}, a
     * conjunction or disjunction with one, or after {@code if not self.training: return ...}.
     * Statements absent from the map run in both.
     */
    public static Map<Stmt, Integer> of(Stmt.FunctionDef def) {
        Map<Stmt, Integer> out = new IdentityHashMap<>();
        walk(def.body(), BOTH, firstParameter(def), out);
        return out;
    }

    /** The modes a statement of {@code table} runs in ({@link #of}). */
    public static int at(Map<Stmt, Integer> table, Stmt s) {
        Integer m = table.get(s);
        return m == null ? BOTH : m;
    }

    /**
     * The modes in which the code at {@code target} (a span inside {@code def}'s own body) runs:
     * its statement's ({@link #of}), narrowed by the expressions around it that a mode or dtype
     * test short-circuits ({@code self.training and f(x)}, {@code a if self.training else b},
     * {@code x.dtype == torch.float16 and g(x)}).
     */
    public static int atSpan(Stmt.FunctionDef def, Span target) {
        Stmt inner = Statements.innermostAround(def.body(), target);
        if (inner == null) return BOTH;
        int[] modes = {at(of(def), inner)};
        String self = firstParameter(def);
        inner.forEachChild(c -> {
            if (!(c instanceof Expr e) || e.span() == null) return;
            if (contains(e.span(), target)) modes[0] &= within(e, target, self);
            else if (e instanceof Expr.BoolOp b && contains(target, e.span())) modes[0] &= operandsPastTheModeTests(b, self);
        });
        return modes[0];
    }

    /**
     * The modes in which a truth test {@code bool(A and B …)} evaluates an operand that is not
     * a mode test: {@code not self.training and x.sum() > 0} reads the tensor in eval mode only,
     * since a mode test is a Python bool (docs/compile-regions.md, "Modes").
     */
    private static int operandsPastTheModeTests(Expr.BoolOp b, String self) {
        boolean and = b.op() == BoolOperator.And;
        int before = BOTH;
        int evaluated = 0;
        for (Expr v : b.values()) {
            if (!isModeTest(v, self)) evaluated |= before;
            before &= and ? whenTrue(v, self) : whenFalse(v, self);
        }
        return evaluated;
    }

    /** The modes in which the part of {@code e} at {@code target} is evaluated. */
    private static int within(Expr e, Span target, String self) {
        if (e instanceof Expr.BoolOp b && contains(target, e.span())) return operandsPastTheModeTests(b, self);
        if (e instanceof Expr.BoolOp b) {
            boolean and = b.op() == BoolOperator.And;
            int before = BOTH;
            for (Expr v : b.values()) {
                if (v.span() != null && contains(v.span(), target)) return before & within(v, target, self);
                before &= and ? whenTrue(v, self) : whenFalse(v, self); // a later operand runs only when this one lets it
            }
            return BOTH;
        }
        if (e instanceof Expr.IfExp x) {
            if (x.body().span() != null && contains(x.body().span(), target)) return whenTrue(x.test(), self) & within(x.body(), target, self);
            if (x.orelse().span() != null && contains(x.orelse().span(), target)) {
                return whenFalse(x.test(), self) & within(x.orelse(), target, self);
            }
        }
        int[] modes = {BOTH};
        e.forEachChild(c -> {
            if (c instanceof Expr k && k.span() != null && contains(k.span(), target)) modes[0] &= within(k, target, self);
        });
        return modes[0];
    }

    private static boolean contains(Span outer, Span inner) {
        return Statements.contains(outer, inner);
    }

    private static int walk(List<Stmt> body, int modes, String self, Map<Stmt, Integer> out) {
        for (Stmt s : body) {
            if (s == null) continue;
            if (modes != BOTH) out.put(s, modes);
            if (s instanceof Stmt.If i) {
                int t = whenTrue(i.test(), self), f = whenFalse(i.test(), self);
                int afterBody = walk(i.body(), modes & t, self, out);
                int afterElse = walk(i.orelse(), modes & f, self, out);
                // the statements after run in the modes either branch falls through in
                modes = (endsPath(i.body()) ? 0 : afterBody) | (endsPath(i.orelse()) ? 0 : afterElse);
            } else {
                for (List<Stmt> block : Statements.nestedBlocks(s)) walk(block, modes, self, out);
            }
        }
        return modes;
    }

    private static boolean endsPath(List<Stmt> body) {
        if (body.isEmpty()) return false;
        Stmt last = body.get(body.size() - 1);
        return last instanceof Stmt.Return || last instanceof Stmt.Raise;
    }

    /** The modes in which {@code test} can be true. */
    public static int whenTrue(Expr test, String self) {
        if (isTraining(test, self)) return TRAIN;
        int d = dtypeTest(test);
        if (d != 0) return d > 0 ? HALF : BOTH;
        if (test instanceof Expr.UnaryOp u && u.op() == UnaryOperator.Not) return whenFalse(u.operand(), self);
        if (test instanceof Expr.BoolOp b) {
            boolean and = b.op() == BoolOperator.And;
            int m = and ? BOTH : 0;
            for (Expr v : b.values()) m = and ? m & whenTrue(v, self) : m | whenTrue(v, self);
            return m;
        }
        return BOTH;
    }

    /** Whether {@code test} reads nothing but the mode: {@code self.training}, its negations and and/or of them. */
    private static boolean isModeTest(Expr test, String self) {
        if (isTraining(test, self) || dtypeTest(test) != 0) return true;
        if (test instanceof Expr.UnaryOp u && u.op() == UnaryOperator.Not) return isModeTest(u.operand(), self);
        if (test instanceof Expr.BoolOp b) return b.values().stream().allMatch(v -> isModeTest(v, self));
        return false;
    }

    /** The modes in which {@code test} can be false. */
    public static int whenFalse(Expr test, String self) {
        if (isTraining(test, self)) return EVAL;
        int d = dtypeTest(test);
        if (d != 0) return d > 0 ? BOTH : HALF;
        if (test instanceof Expr.UnaryOp u && u.op() == UnaryOperator.Not) return whenTrue(u.operand(), self);
        if (test instanceof Expr.BoolOp b) {
            boolean and = b.op() == BoolOperator.And;
            int m = and ? 0 : BOTH;
            for (Expr v : b.values()) m = and ? m | whenFalse(v, self) : m & whenFalse(v, self);
            return m;
        }
        return BOTH;
    }

    /**
     * {@code self.training}: the attribute of the method's first parameter (a decorator's wrapper
     * names it {@code self} or {@code module} as well).
     */
    private static boolean isTraining(Expr e, String self) {
        return e instanceof Expr.Attribute a && a.attr().equals("training") && a.value() instanceof Expr.Name n
                && (n.id().equals("self") || n.id().equals(self));
    }

    /**
     * A comparison of a {@code .dtype} with spelled dtypes: +1 when it can be true only in half
     * precision ({@code x.dtype == torch.float16}, {@code x.dtype in (torch.float16, torch.bfloat16)},
     * {@code x.dtype != torch.float32}), -1 when it can be false only there ({@code !=} half,
     * {@code == torch.float32}), 0 otherwise. In a float32 root every tensor it computes is float32;
     * in a half one a dtype may be either, so only one side is decided. A test of the dtype reads no
     * tensor value: Dynamo decides it while tracing.
     */
    private static int dtypeTest(Expr test) {
        if (!(test instanceof Expr.Compare c) || c.ops().size() != 1) return 0;
        Expr left = c.left(), right = c.comparators().get(0);
        if (!(left instanceof Expr.Attribute la && la.attr().equals("dtype"))) {
            if (!(right instanceof Expr.Attribute ra && ra.attr().equals("dtype"))) return 0;
            Expr t = left;
            left = right;
            right = t;
        }
        List<Expr> named = right instanceof Expr.Tuple t ? t.elts() : right instanceof Expr.List l ? l.elts() : List.of(right);
        int kinds = 0;
        for (Expr n : named) {
            int d = dtypeNamed(n);
            if (d == 0) return 0;
            kinds |= d;
        }
        if (kinds == BOTH) return 0; // both float32 and half: no side decided
        boolean half = kinds == HALF;
        return switch (c.ops().get(0)) {
            case Eq, In -> half ? 1 : -1;
            case NotEq, NotIn -> half ? -1 : 1;
            default -> 0;
        };
    }

    private static String firstParameter(Stmt.FunctionDef def) {
        var a = def.args();
        if (!a.posonlyargs().isEmpty()) return a.posonlyargs().get(0).arg();
        return a.args().isEmpty() ? "self" : a.args().get(0).arg();
    }
}
