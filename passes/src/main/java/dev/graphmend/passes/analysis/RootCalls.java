package dev.graphmend.passes.analysis;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.ExprContext;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.symbols.Symbol;
import dev.graphmend.ir.symbols.Target;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The calls a program makes of what it compiled (docs/compile-regions.md, "Calls of the compiled
 * object"): for {@code compiled = torch.compile(model)}, the parameters of the root function that
 * every call {@code compiled(...)} in the module leaves None, by passing the literal or by leaving
 * out a parameter whose default is None. Dynamo specializes on None, so for this program the root
 * never runs the branches such a parameter would open ({@code if pixel_values is not None:}).
 *
 * <p>Read only where the module shows every use of the compiled object: each later use of its
 * name is a call with no {@code *args}/{@code **kwargs}, and the name is not bound again. A
 * compiled object handed on, returned or stored may be called anywhere with anything.
 */
final class RootCalls {
    private RootCalls() {}

    /**
     * The parameters every call leaves None, each mapped to {@link Val#NONE_LITERAL}; null when the
     * module calls the compiled object nowhere, hands it on, or leaves none of them None.
     */
    static Map<String, Val> noneAtEveryCall(Project project, SourceModule m, Expr.Call compileCall, FunctionRef root) {
        Symbol compiled = assignedTo(m, compileCall);
        if (compiled == null) return null;
        int after = compileCall.span().line();
        List<Expr.Call> calls = new ArrayList<>();
        Map<Expr, Expr.Call> callOf = new java.util.IdentityHashMap<>();
        List<Expr.Name> uses = new ArrayList<>();
        // every node, lambdas and nested functions included: a use missed is a call not seen
        java.util.function.Consumer<dev.graphmend.ir.ast.Node> visit = new java.util.function.Consumer<>() {
            @Override public void accept(dev.graphmend.ir.ast.Node e) {
                if (e instanceof Expr.Call c && c.func() instanceof Expr.Name) callOf.put(c.func(), c);
                // later lines only: `model = torch.compile(model)` reads the name it binds
                if (e instanceof Expr.Name n && n.span() != null && n.span().line() > after && symbolOf(m, n) == compiled) uses.add(n);
                e.forEachChild(this);
            }
        };
        visit.accept(m.ir().module());
        for (Expr.Name n : uses) {
            Expr.Call c = n.ctx() == ExprContext.Load ? callOf.get(n) : null;
            if (c == null) return null; // handed on, or bound again: a later call may run something else
            calls.add(c);
        }
        if (calls.isEmpty()) return null;
        Map<String, Val> none = null;
        for (Expr.Call c : calls) {
            for (Expr a : c.args()) if (a instanceof Expr.Starred) return null;
            for (var k : c.keywords()) if (k.arg() == null) return null;
            Map<String, Val> bound = Parameters.bind(root, c, root.owner() != null,
                    e -> Val.isNone(e) ? Val.NONE_LITERAL : Val.UNKNOWN, project::typeAlias);
            Map<String, Val> here = new HashMap<>();
            bound.forEach((p, v) -> {
                if (v.kind() == ValueKind.NONE) here.put(p, Val.NONE_LITERAL);
            });
            if (none == null) none = here;
            else none.keySet().retainAll(here.keySet());
        }
        return none == null || none.isEmpty() ? null : none;
    }

    /** The variable a statement {@code name = <call>} binds the call to; null for any other use of the call. */
    private static Symbol assignedTo(SourceModule m, Expr.Call call) {
        Symbol[] found = {null};
        Statements.everywhere(m.ir().module(), s -> {
            if (s instanceof Stmt.Assign as && as.value() == call && as.targets().size() == 1
                    && as.targets().get(0) instanceof Expr.Name n) {
                found[0] = symbolOf(m, n);
            }
        });
        return found[0];
    }

    private static Symbol symbolOf(SourceModule m, Expr.Name n) {
        Target t = m.names().resolve(n);
        return t instanceof Target.Local l ? l.symbol() : t instanceof Target.ModuleMember mm && mm.path().indexOf('.') < 0 ? mm.symbol() : null;
    }
}
