package dev.graphmend.passes.fix;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Keyword;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.analysis.FunctionContext;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * GM102 {@code warnings.warn("literal"[, Category])} → {@code T.ops.graphmend.warn("literal", "Category",
 * __name__, __file__, <line>)}: an ordered custom op (see {@link GuardedOp}) that the compiled graph
 * calls in program order and that issues the warning when the graph runs with
 * {@code warnings.warn_explicit}, the way {@code warnings.warn} with stacklevel 1 issues it: the
 * same category, message, file and line, the module's {@code __warningregistry__} (so "default" and
 * "once" filters show it once) and the filters in force. Observed on torch 2.10 and 2.15
 * (docs/rules/GM102.md).
 */
public final class InGraphWarning implements Transformation {
    static final String OP = "graphmend::warn";

    @Override public String code() { return "GM102"; }

    @Override
    public Proposal propose(FixSite site) {
        if (!(site.at() instanceof Expr.Call call)) return Proposal.notApplicable();
        FunctionContext f = site.function();
        if (!"warnings.warn".equals(f.qualifiedName(call.func()))) return Proposal.notApplicable();
        if (f.config().torchBefore(2, 10)) {
            return Proposal.decline("the in-graph warning was observed to work from torch 2.10 (torch-version is "
                    + f.config().torchVersion() + ")");
        }
        Stmt.Expr stmt = SideEffectSites.statement(site);
        if (stmt == null) return Proposal.decline("the call's result is used, so it cannot become an in-graph warning");
        Expr category = call.args().size() > 1 ? call.args().get(1) : null;
        for (Keyword k : call.keywords()) {
            if ("category".equals(k.arg()) && category == null) {
                category = k.value();
            } else if (!("stacklevel".equals(k.arg()) && k.value() instanceof Expr.Constant c && BigInteger.ONE.equals(c.value()))) {
                return Proposal.decline("the in-graph warning takes a message and a category only (stacklevel other than 1 "
                        + "names a caller's line, which is not known where the graph runs)");
            }
        }
        if (call.args().isEmpty() || call.args().size() > 2
                || !(call.args().get(0) instanceof Expr.Constant c && c.value() instanceof String)) {
            return Proposal.decline("the in-graph warning takes a literal message");
        }
        String categoryName = category == null ? "UserWarning" : dottedName(category);
        if (categoryName == null) return Proposal.decline("the warning category is not a name or a dotted name");
        Expr root = category;
        while (root instanceof Expr.Attribute a) root = a.value();
        if (root instanceof Expr.Name n && f.module().names().resolve(n) instanceof dev.graphmend.ir.symbols.Target.Local) {
            // the op finds the category by name in the module's globals and the builtins when it runs
            return Proposal.decline("the warning category is a local variable, which the in-graph warning cannot find "
                    + "when the graph runs");
        }
        SourceText src = site.source();
        String torch = src.unconditionalTorchAlias();
        if (torch == null) return Proposal.decline("torch is not imported unconditionally at module level in this file (the operator's definition runs at import time, also where torch is missing)");
        List<Diagnostic.Edit> edits = new ArrayList<>();
        int after = Math.max(SideEffectSites.torchImportLine(site), SideEffectSites.importLine(site, "warnings"));
        int line = GuardedOp.define(site, OP, after, helper(torch), call.span().line(), edits);
        edits.add(new Diagnostic.Edit(call.span(), torch + ".ops.graphmend.warn(" + src.text(call.args().get(0)) + ", \""
                + categoryName + "\", __name__, __file__, " + line + ")"));
        return Proposal.of(new Diagnostic.Fix("Warn inside the graph (an ordered custom op)", "safe", edits,
                "Safe: the compiled graph issues the warning at the same point, with the same category, message, file "
                        + "and line, under the warning filters and the module's once-registry in force when it runs. The "
                        + "fix adds, once per file, a guarded definition of the graphmend::warn operator after the imports. "
                        + "The warning's line is written into the call; graphmend fix sets it again when lines above move."));
    }

    private static String dottedName(Expr e) {
        if (e instanceof Expr.Name n) return n.id();
        if (e instanceof Expr.Attribute a) {
            String base = dottedName(a.value());
            return base == null ? null : base + "." + a.attr();
        }
        return null;
    }

    static String helper(String torch) {
        return GuardedOp.definition(torch, OP, "graphmend: a warnings.warn that a compiled graph makes in program order (an ordered custom op);\n"
                        + "the warning filters and the module's once-registry apply when the graph runs",
                "(msg: str, category: str, module: str, filename: str, lineno: int) -> None", List.of(
                "import builtins as _builtins",
                "import sys as _sys",
                "import warnings as _warnings",
                "",
                "scope = vars(_sys.modules[module])",
                "first, *rest = category.split(\".\")",
                "cls = scope[first] if first in scope else getattr(_builtins, first)",
                "for part in rest:",
                "    cls = getattr(cls, part)",
                "registry = scope.setdefault(\"__warningregistry__\", {})",
                "_warnings.warn_explicit(msg, cls, filename, lineno, module, registry, scope)"));
    }
}
