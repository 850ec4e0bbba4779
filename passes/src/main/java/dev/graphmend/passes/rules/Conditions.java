package dev.graphmend.passes.rules;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.ast.UnaryOperator;
import dev.graphmend.passes.analysis.FunctionContext;
import dev.graphmend.passes.analysis.ValueKind;
import java.util.List;

/** Truth tests: when taking an expression's truth value makes Dynamo read tensor data. */
public final class Conditions {
    private Conditions() {}

    /**
     * Whether {@code bool(test)} depends on tensor values: the test is a tensor, or an
     * {@code and}/{@code or}/{@code not} over one.
     */
    public static boolean isDataDependent(FunctionContext f, Expr test) {
        if (test instanceof Expr.BoolOp b) {
            boolean and = b.op() == dev.graphmend.ir.ast.BoolOperator.And;
            java.util.Set<String> narrowed = new java.util.HashSet<>();
            for (Expr v : b.values()) {
                if (!narrowed.isEmpty() && onlyOver(f, v, narrowed)) continue;
                if (isDataDependent(f, v)) return true;
                String n = narrowedByIsinstance(f, v, and);
                if (n != null) narrowed.add(n);
            }
            return false;
        }
        if (test instanceof Expr.UnaryOp u && u.op() == UnaryOperator.Not) return isDataDependent(f, u.operand());
        if (test instanceof Expr.NamedExpr ne) return isDataDependent(f, ne.value());
        if (test instanceof Expr.Name n && f.tensorDefinitionOnSomePaths(n) != null) return true;
        if (f.value(test).hasDataTruth()) return true;
        return pathTensor(f, test) != null;
    }

    /**
     * The name an operand of an {@code and} chain proves is no tensor for the operands after it,
     * {@code isinstance(x, SparseTensor) and not x.has_value()} (torch_geometric), or of an
     * {@code or} chain, {@code not isinstance(t, (int, float)) or t != 1}: Dynamo decides
     * {@code isinstance} while tracing and reaches the later operand only for such an {@code x}.
     * Null when the operand is no such test, or the class may be a tensor's.
     */
    private static String narrowedByIsinstance(FunctionContext f, Expr v, boolean and) {
        Expr test = v;
        if (!and) {
            if (!(v instanceof Expr.UnaryOp u && u.op() == UnaryOperator.Not)) return null;
            test = u.operand();
        }
        if (!(test instanceof Expr.Call c) || c.args().size() != 2 || !(c.args().get(0) instanceof Expr.Name n)
                || !"builtins.isinstance".equals(f.qualifiedName(c.func()))) {
            return null;
        }
        List<Expr> classes = c.args().get(1) instanceof Expr.Tuple t ? t.elts() : List.of(c.args().get(1));
        for (Expr k : classes) if (!f.isNonTensorClass(k)) return null;
        return n.id();
    }

    /** Whether an expression reads no tensor but through the narrowed names (and Python values). */
    private static boolean onlyOver(FunctionContext f, Expr e, java.util.Set<String> narrowed) {
        if (e instanceof Expr.Name n) return narrowed.contains(n.id()) || f.value(e).kind() == ValueKind.STATIC;
        if (e instanceof Expr.Constant) return true;
        if (e instanceof Expr.Attribute a) return onlyOver(f, a.value(), narrowed);
        if (e instanceof Expr.UnaryOp u) return onlyOver(f, u.operand(), narrowed);
        if (e instanceof Expr.BinOp b) return onlyOver(f, b.left(), narrowed) && onlyOver(f, b.right(), narrowed);
        if (e instanceof Expr.Compare c) {
            if (!onlyOver(f, c.left(), narrowed)) return false;
            for (Expr x : c.comparators()) if (!onlyOver(f, x, narrowed)) return false;
            return true;
        }
        if (e instanceof Expr.Call c && c.func() instanceof Expr.Attribute a && onlyOver(f, a.value(), narrowed)) {
            for (Expr x : c.args()) if (!onlyOver(f, x, narrowed)) return false;
            return c.keywords().isEmpty();
        }
        return f.value(e).kind() == ValueKind.STATIC;
    }

    /**
     * A comparison or arithmetic over Python values and one name that a helper of this module
     * returns as a tensor on some paths ({@code seq_len % chunk != 0} with
     * {@code chunk = _chunk_len(config)} returning a config int or {@code np.lcm(...)}): what
     * makes it a tensor, or null.
     */
    private static String pathTensor(FunctionContext f, Expr e) {
        List<Expr> operands;
        if (e instanceof Expr.Compare c) {
            operands = new java.util.ArrayList<>(c.comparators());
            operands.add(c.left());
        } else if (e instanceof Expr.BinOp b) {
            operands = List.of(b.left(), b.right());
        } else if (e instanceof Expr.Name n) {
            Stmt.Return r = f.tensorReturnOnSomePaths(n);
            return r == null ? null : " `" + n.id() + "` holds a tensor only when its helper returns on line " + r.span().line()
                    + "; its other paths give a Python value.";
        } else {
            return null;
        }
        String found = null;
        for (Expr x : operands) {
            if (f.value(x).kind() == ValueKind.STATIC) continue;
            String p = pathTensor(f, x);
            if (p == null || found != null) return null;
            found = p;
        }
        return found;
    }

    /**
     * For a test over a name that is a tensor on some paths only: which assignment makes it one
     * ({@code skip_the_layer = dropout_probability < p} under {@code if self.training}), or which
     * helper return ({@link #pathTensor}).
     */
    static String tensorOnSomePaths(FunctionContext f, Expr cond) {
        for (Expr e : operands(cond)) {
            if (e instanceof Expr.Name n) {
                var def = f.tensorDefinitionOnSomePaths(n);
                if (def != null && !f.value(n).isTensor()) {
                    return " `" + n.id() + "` holds a tensor only after the assignment on line " + (def.span().line())
                            + "; elsewhere it is a Python value.";
                }
                String when = staticPrefix(f, n);
                if (when != null) return " `" + n.id() + "` holds a tensor only when " + when + " (Dynamo decides that part while tracing).";
            } else if (!f.value(e).hasDataTruth()) {
                String path = pathTensor(f, e);
                if (path != null) return path;
            }
        }
        return "";
    }

    /**
     * For a name assigned only {@code static and tensor} ({@code skip = self.training and torch.rand([]) < p}):
     * when it holds the tensor ("`self.training` is true"), or null.
     */
    private static String staticPrefix(FunctionContext f, Expr.Name n) {
        List<Expr> values = f.assignedValues(n);
        if (values == null || values.size() != 1 || !(values.get(0) instanceof Expr.BoolOp b) || !f.value(n).isTensor()) return null;
        List<String> parts = new java.util.ArrayList<>();
        for (int k = 0; k < b.values().size() - 1; k++) {
            String t = text(f, b.values().get(k));
            if (t == null) return null;
            parts.add(t);
        }
        boolean and = b.op() == dev.graphmend.ir.ast.BoolOperator.And;
        return "`" + String.join(and ? " and " : " or ", parts) + "` is " + (and ? "true" : "false");
    }

    /** For a test whose data comes from numpy (no tensor in it): a sentence that says why it is one. */
    static String numpyNote(FunctionContext f, Expr cond) {
        boolean numpy = false;
        for (Expr e : operands(cond)) {
            if (f.value(e).isTensor()) return "";
            numpy |= f.value(e).kind() == ValueKind.NUMPY_ARRAY;
        }
        return numpy ? " The value comes from numpy, which Dynamo traces as a tensor." : "";
    }

    /** The operands of a test's and/or/not chain, in order ({@code a and not b} gives a, b). */
    private static List<Expr> operands(Expr cond) {
        List<Expr> out = new java.util.ArrayList<>();
        List<Expr> todo = new java.util.ArrayList<>(List.of(cond));
        while (!todo.isEmpty()) {
            Expr e = todo.remove(0);
            if (e instanceof Expr.BoolOp b) todo.addAll(b.values());
            else if (e instanceof Expr.UnaryOp u && u.op() == UnaryOperator.Not) todo.add(u.operand());
            else out.add(e);
        }
        return out;
    }

    /** {@code if <test>: raise ...} with nothing else in the body and no else branch: a validation guard. */
    static boolean isGuard(Stmt.If i) {
        return i.orelse().isEmpty() && i.body().size() == 1 && i.body().get(0) instanceof Stmt.Raise;
    }

    /**
     * For {@code static and tensor} ({@code self.training and torch.rand([]) < p}, {@code x.dtype ==
     * torch.float16 and torch.isinf(x).any()}): Dynamo decides the static operands while tracing
     * and reaches the tensor one only when they let it, so the break happens only then; say when.
     */
    static String onlyWhen(FunctionContext f, Expr cond) {
        String any = anyOfGuarded(f, cond);
        if (any != null) {
            return " It breaks only when `" + any + "` is true (Dynamo decides that part while tracing).";
        }
        if (!(cond instanceof Expr.BoolOp b)) return "";
        List<String> parts = new java.util.ArrayList<>();
        for (Expr v : b.values()) {
            if (Conditions.isDataDependent(f, v)) break;
            if (f.value(v).kind() != dev.graphmend.passes.analysis.ValueKind.STATIC) return "";
            parts.add(text(f, v));
        }
        if (parts.isEmpty() || parts.contains(null)) return "";
        boolean and = b.op() == dev.graphmend.ir.ast.BoolOperator.And;
        return " It breaks only when `" + String.join(and ? " and " : " or ", parts) + "` is " + (and ? "true" : "false")
                + " (Dynamo decides that part while tracing).";
    }

    /**
     * {@code (a is not None and a_mask.any()) or (b is not None and b_mask.any())}: each tensor
     * test is guarded by a static one, so Dynamo reaches a tensor only when one of the guards
     * holds. The guards joined with {@code or}, or null when the test is not of that form.
     */
    private static String anyOfGuarded(FunctionContext f, Expr cond) {
        if (!(cond instanceof Expr.BoolOp or) || or.op() != dev.graphmend.ir.ast.BoolOperator.Or) return null;
        List<String> guards = new java.util.ArrayList<>();
        for (Expr v : or.values()) {
            if (!(v instanceof Expr.BoolOp and) || and.op() != dev.graphmend.ir.ast.BoolOperator.And) return null;
            List<String> parts = new java.util.ArrayList<>();
            for (Expr x : and.values()) {
                if (isDataDependent(f, x)) break;
                if (f.value(x).kind() != dev.graphmend.passes.analysis.ValueKind.STATIC) return null;
                String t = text(f, x);
                if (t == null) return null;
                parts.add(t);
            }
            if (parts.isEmpty()) return null;
            guards.add(String.join(" and ", parts));
        }
        return String.join(" or ", guards);
    }

    /** The source of a one-line expression, or null. */
    private static String text(FunctionContext f, Expr e) {
        var span = e.span();
        if (span.line() != span.endLine()) return null;
        var lines = f.module().ir().lines();
        String line = lines.lineText(span.line());
        int from = line.offsetByCodePoints(0, lines.cpColumnFromUtf8(span.line(), span.col()));
        int to = line.offsetByCodePoints(0, lines.cpColumnFromUtf8(span.line(), span.endCol()));
        return from <= to && to <= line.length() ? line.substring(from, to) : null;
    }

}
