package dev.graphmend.passes.analysis;

import dev.graphmend.ir.ast.ExceptHandler;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.MatchCase;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.cfg.Definition;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which tensors of a function Dynamo holds as inputs of the graph it is tracing, not as values it
 * computes there. At a graph break Dynamo runs the breaking operation eagerly and resumes in a
 * new function whose inputs are the live locals, so a tensor computed before a statement that
 * certainly breaks, or returned by a call that broke, is an input after it. Dynamo reads a 0-d
 * input's value while tracing where a size is needed ({@code torch.arange(m)},
 * {@code x.new_zeros(m)}, {@code x.narrow(-1, 0, m)}: no break on torch 2.10 and 2.15), while
 * the same value computed in the graph breaks there (GB0033). Observed in fixtures/GM201.py
 * (Longformer's global-attention indices, {@code max()} before {@code nonzero()}).
 *
 * <p>Only breaks that happen on every path are used: a call of an operator that always breaks
 * under the default configuration ({@code nonzero}, {@code item}, {@code print}, …), a function
 * of the project whose body breaks at its top level, an {@code if} or {@code assert} on a tensor's
 * truth. A statement separates a definition from a use when it lies between them in the same
 * block as the use or one around it, so every path from the one to the other passes it.
 */
final class GraphInputs {
    private static final Set<String> BREAKING_METHODS = Set.of("nonzero", "unique", "unique_consecutive",
            "masked_select", "argwhere", "bincount", "item", "tolist");
    private static final Set<String> BREAKING_FUNCTIONS = Set.of("torch.nonzero", "torch.unique",
            "torch.unique_consecutive", "torch.masked_select", "torch.argwhere", "torch.bincount", "builtins.print");
    private static final Set<String> SCALAR_BUILTINS = Set.of("builtins.int", "builtins.float", "builtins.bool");

    private final FunctionContext f;
    private final Map<Node, Stmt> statementOf = new IdentityHashMap<>();
    private final Map<Stmt, List<Stmt>> blockOf = new IdentityHashMap<>();
    private final Map<Stmt, Stmt> parentOf = new IdentityHashMap<>();
    private final Map<Stmt, Boolean> breaks = new IdentityHashMap<>();

    GraphInputs(FunctionContext f) {
        this.f = f;
        index(f.function().def().body(), null);
    }

    private void index(List<Stmt> block, Stmt parent) {
        for (Stmt s : block) {
            blockOf.put(s, block);
            if (parent != null) parentOf.put(s, parent);
            Statements.expressions(s, e -> statementOf.putIfAbsent(e, s));
            for (List<Stmt> child : blocks(s)) index(child, s);
        }
    }

    private static List<List<Stmt>> blocks(Stmt s) {
        List<List<Stmt>> out = new ArrayList<>();
        if (s instanceof Stmt.If i) {
            out.add(i.body());
            out.add(i.orelse());
        } else if (s instanceof Stmt.For x) {
            out.add(x.body());
            out.add(x.orelse());
        } else if (s instanceof Stmt.AsyncFor x) {
            out.add(x.body());
            out.add(x.orelse());
        } else if (s instanceof Stmt.While w) {
            out.add(w.body());
            out.add(w.orelse());
        } else if (s instanceof Stmt.With w) {
            out.add(w.body());
        } else if (s instanceof Stmt.AsyncWith w) {
            out.add(w.body());
        } else if (s instanceof Stmt.Try t) {
            out.add(t.body());
            for (ExceptHandler h : t.handlers()) out.add(h.body());
            out.add(t.orelse());
            out.add(t.finalbody());
        } else if (s instanceof Stmt.TryStar t) {
            out.add(t.body());
            for (ExceptHandler h : t.handlers()) out.add(h.body());
            out.add(t.orelse());
            out.add(t.finalbody());
        } else if (s instanceof Stmt.Match m) {
            for (MatchCase c : m.cases()) out.add(c.body());
        }
        return out;
    }

    /** Whether every definition reaching {@code use} is separated from it by a certain graph break. */
    boolean separated(Expr.Name use, Iterable<Definition> defs) {
        Stmt u = statementOf.get(use);
        if (u == null) return false;
        for (Definition d : defs) {
            if (!separated(d, u)) return false;
        }
        return true;
    }

    private boolean separated(Definition d, Stmt u) {
        Stmt def = d.kind() == Definition.Kind.PARAMETER ? null : statementOf.get(d.node());
        if (d.kind() != Definition.Kind.PARAMETER) {
            if (def == null) return false;
            if (assignsBreakingCall(def)) return true; // the call ran eagerly: its result is an input
        }
        for (Stmt cur = u; cur != null; cur = parentOf.get(cur)) {
            if (cur != u && headerBreaks(cur) && precedes(def, cur)) return true; // in the body of `if t.any():`
            List<Stmt> block = blockOf.get(cur);
            int i = indexOf(block, cur);
            for (int j = i - 1; j >= 0; j--) {
                Stmt s = block.get(j);
                if (precedes(def, s) && breaks(s)) return true;
            }
        }
        return false;
    }

    /** Whether the function's own top-level statements break on every path through it. */
    boolean bodyBreaks() {
        for (Stmt s : f.function().def().body()) {
            if (breaks(s)) return true;
        }
        return false;
    }

    /** The definition's statement ends before {@code s} starts (a parameter precedes everything). */
    private static boolean precedes(Stmt def, Stmt s) {
        if (def == null) return true;
        if (def == s) return false;
        Span a = def.span(), b = s.span();
        if (a == null || b == null) return false;
        return a.endLine() < b.line() || a.endLine() == b.line() && a.endCol() <= b.col();
    }

    private static int indexOf(List<Stmt> block, Stmt s) {
        for (int i = 0; i < block.size(); i++) if (block.get(i) == s) return i;
        return -1;
    }

    private boolean assignsBreakingCall(Stmt s) {
        Expr value = s instanceof Stmt.Assign a ? a.value() : s instanceof Stmt.AnnAssign a ? a.value() : null;
        return value instanceof Expr.Call c && breakingCall(c);
    }

    private boolean headerBreaks(Stmt s) {
        Expr test = s instanceof Stmt.If i ? i.test() : s instanceof Stmt.Assert a ? a.test() : null;
        return test != null && !(test instanceof Expr.BoolOp) && f.value(test).hasDataTruth();
    }

    /** Whether a statement breaks the graph whenever it runs (memoised; false while being decided). */
    private boolean breaks(Stmt s) {
        Boolean known = breaks.get(s);
        if (known != null) return known;
        breaks.put(s, Boolean.FALSE);
        boolean b;
        if (s instanceof Stmt.If || s instanceof Stmt.Assert) {
            b = headerBreaks(s);
        } else if (s instanceof Stmt.Expr || s instanceof Stmt.Assign || s instanceof Stmt.AnnAssign
                || s instanceof Stmt.AugAssign || s instanceof Stmt.Return) {
            List<Expr.Call> calls = new ArrayList<>();
            Statements.expressions(s, e -> {
                if (e instanceof Expr.Call c) calls.add(c);
            });
            b = calls.stream().anyMatch(this::breakingCall);
        } else {
            b = false;
        }
        breaks.put(s, b);
        return b;
    }

    private boolean breakingCall(Expr.Call c) {
        String qn = f.qualifiedName(c.func());
        if (qn != null && BREAKING_FUNCTIONS.contains(qn)) return true;
        if (qn != null && SCALAR_BUILTINS.contains(qn)) return c.args().size() == 1 && f.value(c.args().get(0)).isTensor();
        if (c.func() instanceof Expr.Attribute a && BREAKING_METHODS.contains(a.attr()) && f.value(a.value()).isTensor()) {
            return true;
        }
        Callee target = f.callee(c);
        if (target == null) return false;
        f.consultBody(target.function()); // what this function's inputs are now depends on that body
        // judged once per function (with the first call's arguments): asked for every tensor use
        return f.project().bodyBreaks(target.function().def(), () -> {
            FunctionContext inner = f.calleeContext(target, c);
            return inner != null && inner.graphInputs().bodyBreaks();
        });
    }
}
