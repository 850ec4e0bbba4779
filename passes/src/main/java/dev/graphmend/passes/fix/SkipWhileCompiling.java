package dev.graphmend.passes.fix;

import dev.graphmend.passes.model.FixInfo;
import dev.graphmend.passes.model.Safety;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.model.Diagnostic;
import java.util.ArrayList;
import java.util.List;

/**
 * GM102 → skip the call while compiling: {@code if not torch.compiler.is_compiling(): <call>}.
 * Unsafe: under torch.compile the output is dropped.
 */
public final class SkipWhileCompiling implements Transformation {
    static final FixInfo INFO = new FixInfo("Skip while compiling", Safety.UNSAFE);

    @Override public FixInfo info() { return INFO; }

    @Override
    public Proposal propose(FixSite site) {
        Stmt.Expr stmt = SideEffectSites.statement(site);
        if (stmt == null) return Proposal.decline("the call's result is used, so it cannot be skipped");
        if (!SideEffectSites.ownsItsLines(site, stmt)) {
            return Proposal.decline("the call shares its line with other statements, so it cannot be wrapped in an if");
        }
        SourceText src = site.source();
        String optionalTorch = site.optionalTorchProblem();
        if (optionalTorch != null) return Proposal.decline(optionalTorch);
        String torch = site.torchName();
        List<Diagnostic.Edit> edits = new ArrayList<>();
        if (torch == null) {
            torch = "torch";
            edits.add(src.insertLinesAfter(src.importInsertionLine(), "import torch"));
        }
        String guard = "not " + torch + ".compiler.is_compiling()";
        FixSite.Place place = site.place(stmt);
        if (place != null && place.owner() instanceof Stmt.If outer && place.block() == outer.body()
                && outer.body().size() == 1 && outer.orelse().isEmpty()) {
            // the call is all an `if` (or `elif`) does: `if A and not is_compiling():`, not an `if` nested
            // in it (ruff's SIM102); bool(A) is still taken once, first
            String test = src.text(outer.test());
            edits.add(new Diagnostic.Edit(outer.test().span(), (bindsLooserThanAnd(outer.test()) ? "(" + test + ")" : test)
                    + " and " + guard));
        } else {
            String indent = src.indentation(stmt.span().line());
            String body = src.text(stmt).replace("\n", "\n" + src.indentUnit());
            edits.add(new Diagnostic.Edit(stmt.span(), "if " + guard + ":\n" + indent + src.indentUnit() + body));
        }
        String name = Purity.calleeText((dev.graphmend.ir.ast.Expr.Call) stmt.value());
        return Proposal.of(new Diagnostic.Fix("Skip " + name + " while compiling", Safety.UNSAFE, edits,
                "Unsafe: under torch.compile this call no longer runs, so its output is lost; eager runs are unchanged."));
    }

    /** Whether {@code e and x} would regroup {@code e}: an {@code or}, a conditional expression, a lambda, a walrus. */
    private static boolean bindsLooserThanAnd(dev.graphmend.ir.ast.Expr e) {
        return (e instanceof dev.graphmend.ir.ast.Expr.BoolOp b && b.op() == dev.graphmend.ir.ast.BoolOperator.Or)
                || e instanceof dev.graphmend.ir.ast.Expr.IfExp || e instanceof dev.graphmend.ir.ast.Expr.Lambda
                || e instanceof dev.graphmend.ir.ast.Expr.NamedExpr;
    }
}
