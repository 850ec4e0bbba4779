package dev.graphmend.passes.fix;

import dev.graphmend.ir.ast.Arg;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.PyConstant;
import dev.graphmend.ir.cfg.Definition;
import dev.graphmend.passes.analysis.FunctionContext;
import java.util.List;
import java.util.Set;

/**
 * Expressions known to be Python scalars (int, float, bool, str, None, a dtype) while Dynamo traces:
 * the values an effectful operator of the graph can take as arguments. Conservative: anything not
 * recognised (a torch.Size, a tuple, an object) is not a scalar.
 */
final class Scalars {
    private Scalars() {}

    private static final Set<String> SCALAR_METHODS = Set.of("size", "dim", "ndimension", "numel", "element_size");
    private static final Set<String> SCALAR_ATTRIBUTES = Set.of("ndim", "dtype", "training", "requires_grad", "is_cuda");
    private static final Set<String> SCALAR_ANNOTATIONS = Set.of("int", "float", "bool", "str");

    static boolean isScalar(FunctionContext f, Expr e, int depth) {
        if (depth > 3) return false;
        if (e instanceof Expr.Constant c) {
            return !(c.value() instanceof PyConstant.Bytes || c.value() == PyConstant.Singleton.ELLIPSIS
                    || c.value() instanceof PyConstant.Complex);
        }
        if (e instanceof Expr.Subscript s && s.value() instanceof Expr.Attribute a && a.attr().equals("shape")) {
            return f.kind(a.value()).isTensor() && isIndex(s.slice());
        }
        if (e instanceof Expr.Call c && c.func() instanceof Expr.Attribute a && SCALAR_METHODS.contains(a.attr())) {
            // x.size() with no argument is a torch.Size, not a scalar
            return f.kind(a.value()).isTensor() && (!a.attr().equals("size") || c.args().size() == 1 && isIndex(c.args().get(0)));
        }
        if (e instanceof Expr.Call c && "builtins.len".equals(f.qualifiedName(c.func()))) return true;
        if (e instanceof Expr.Attribute a && SCALAR_ATTRIBUTES.contains(a.attr())) {
            return f.kind(a.value()).isTensor() || a.attr().equals("training");
        }
        if (e instanceof Expr.BinOp b) return isScalar(f, b.left(), depth + 1) && isScalar(f, b.right(), depth + 1);
        if (e instanceof Expr.UnaryOp u) return isScalar(f, u.operand(), depth + 1);
        if (e instanceof Expr.Name n) {
            var defs = f.module().ir().defUse(f.function().def()).definitionsOf(n);
            if (!defs.isEmpty() && defs.stream().allMatch(d -> d.kind() == Definition.Kind.PARAMETER)) return annotatedScalar(f, n.id());
            List<Expr> vs = f.assignedValues(n);
            if (vs == null || vs.isEmpty()) return false;
            for (Expr v : vs) if (v == null || !isScalar(f, v, depth + 1)) return false;
            return true;
        }
        return false;
    }

    private static boolean isIndex(Expr e) {
        return e instanceof Expr.Constant c && c.value() instanceof java.math.BigInteger
                || e instanceof Expr.UnaryOp u && isIndex(u.operand());
    }

    /** A parameter of the function annotated int, float, bool or str (called where only the parameter's binding reaches the use). */
    private static boolean annotatedScalar(FunctionContext f, String name) {
        var a = f.function().def().args();
        for (List<Arg> group : List.of(a.posonlyargs(), a.args(), a.kwonlyargs())) {
            for (Arg arg : group) {
                if (arg.arg().equals(name)) {
                    return arg.annotation() instanceof Expr.Name n && SCALAR_ANNOTATIONS.contains(n.id());
                }
            }
        }
        return false;
    }
}
