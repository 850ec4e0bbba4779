package dev.graphmend.passes.fix;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Keyword;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.model.FixInfo;
import dev.graphmend.passes.model.Safety;
import java.util.List;

/**
 * GM301: {@code torch.compile(model)} → {@code torch.compile(model, fullgraph=True)},
 * {@code @torch.compile} → {@code @torch.compile(fullgraph=True)}, {@code fullgraph=False} →
 * {@code fullgraph=True} (docs/rules/GM301.md). Under {@code fullgraph=True} Dynamo captures scalar
 * reads and data-dependent output shapes into the graph (observed on torch 2.10 and 2.15), for this
 * compile root only: no process-wide setting changes. Unsafe: a break the analysis did not see
 * raises at the first call instead of splitting the graph.
 *
 * <p>The fix is decided per compile root, not per site of a compiled function, so {@link #propose}
 * has nothing to rewrite; the root rule asks {@link #edits} for the root's call or decorator.
 */
public final class CompileWithFullgraph implements Transformation {
    public static final FixInfo INFO = new FixInfo("Compile with `fullgraph=True`", Safety.UNSAFE,
            dev.graphmend.passes.rules.CaptureAtRoot.CAPTURES_SINCE);

    @Override public FixInfo info() { return INFO; }

    @Override
    public Proposal propose(FixSite site) {
        return Proposal.notApplicable();
    }

    /**
     * The edits that turn on {@code fullgraph} at a root's {@code torch.compile(...)} call (or
     * {@code model.compile(...)}) or bare decorator; null when the call already says
     * {@code fullgraph=} something other than {@code False}, or passes {@code **options} that may.
     */
    public static List<Diagnostic.Edit> edits(Expr compile) {
        if (!(compile instanceof Expr.Call call)) {
            Span s = compile.span(); // a bare @torch.compile
            return List.of(new Diagnostic.Edit(new Span(s.endLine(), s.endCol(), s.endLine(), s.endCol()), "(fullgraph=True)"));
        }
        for (Keyword k : call.keywords()) {
            if (k.arg() == null) return null;
            if (k.arg().equals("fullgraph")) {
                if (!(k.value() instanceof Expr.Constant c && Boolean.FALSE.equals(c.value()))) return null;
                return List.of(new Diagnostic.Edit(k.value().span(), "True"));
            }
        }
        Span last = null;
        for (Expr a : call.args()) if (last == null || after(a.span(), last)) last = a.span();
        for (Keyword k : call.keywords()) if (last == null || after(k.span(), last)) last = k.span();
        if (last == null) {
            Span s = call.span(); // model.compile(): inside the parentheses
            return List.of(new Diagnostic.Edit(new Span(s.endLine(), s.endCol() - 1, s.endLine(), s.endCol() - 1), "fullgraph=True"));
        }
        // after the last argument, before a trailing comma if there is one
        return List.of(new Diagnostic.Edit(new Span(last.endLine(), last.endCol(), last.endLine(), last.endCol()), ", fullgraph=True"));
    }

    /** The fix as the GM301 diagnostic offers it. */
    public static Diagnostic.Fix fix(List<Diagnostic.Edit> edits) {
        return new Diagnostic.Fix(INFO.name(), INFO.safety(), edits,
                "a graph break the analysis does not see raises at the first call instead of splitting the graph");
    }

    private static boolean after(Span a, Span b) {
        return a.endLine() > b.endLine() || a.endLine() == b.endLine() && a.endCol() > b.endCol();
    }
}
