package dev.graphmend.passes.fix;

import dev.graphmend.passes.model.FixInfo;
import dev.graphmend.passes.model.Safety;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Span;
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

    static final FixInfo INFO = new FixInfo("Warn inside the graph", Safety.SAFE, "2.10");

    @Override public FixInfo info() { return INFO; }

    @Override
    public Proposal propose(FixSite site) {
        if (!(site.at() instanceof Expr.Call call)) return Proposal.notApplicable();
        FunctionContext f = site.function();
        if (!"warnings.warn".equals(f.qualifiedName(call.func()))) return Proposal.notApplicable();
        if (f.config().torchBefore(INFO.sinceTorch())) {
            return Proposal.decline("the in-graph warning was observed to work from torch 2.10 (torch-version is "
                    + f.config().torchVersion() + ")");
        }
        Stmt.Expr stmt = SideEffectSites.statement(site);
        if (stmt == null) return Proposal.decline("the call's result is used, so it cannot become an in-graph warning");
        if (TorchScriptCode.mayCompile(site)) return Proposal.decline(TorchScriptCode.reason("the in-graph warning operator"));
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
        return Proposal.lazy("Warn inside the graph (an ordered custom op)", Safety.SAFE,
                "Safe: the compiled graph issues the warning at the same point, with the same category, message, file "
                        + "and line, under the warning filters and the module's once-registry in force when it runs. The "
                        + "fix adds, once per file, a guarded definition of the graphmend::warn operator after the imports. "
                        + "The warning's line is written into the call; graphmend fix sets it again when lines above move.", () -> {
            List<Diagnostic.Edit> edits = new ArrayList<>();
            int after = Math.max(SideEffectSites.torchImportLine(site), SideEffectSites.importLine(site, "warnings"));
            int line = GuardedOp.define(site, OP, after, helper(torch), call.span().line(), edits);
            line -= dropUnusedImport(site, call, edits);
            edits.add(new Diagnostic.Edit(call.span(), torch + ".ops.graphmend.warn(" + src.text(call.args().get(0)) + ", \""
                    + categoryName + "\", __name__, __file__, " + line + ")"));
            return edits;
        });
    }

    /**
     * When this call is the module's last use of {@code warnings} (an {@code import warnings} of its
     * own line), the import goes too: left in place it is unused (ruff's F401). Folds into the
     * definition's insertion when that comes right after the import. Returns how many lines above
     * the call it removes (0 or 1).
     */
    private static int dropUnusedImport(FixSite site, Expr.Call call, List<Diagnostic.Edit> edits) {
        Stmt.Import imp = null;
        for (Stmt st : site.module().ir().module().body()) {
            if (st instanceof Stmt.Import i && i.names().size() == 1 && i.names().get(0).name().equals("warnings")
                    && i.names().get(0).asname() == null && i.span().line() == i.span().endLine()) {
                imp = i;
            }
        }
        if (imp == null || !(call.func() instanceof Expr.Attribute a && a.value() instanceof Expr.Name base)) return 0;
        int[] uses = {site.module().nameUses("warnings") - (base.id().equals("warnings") ? 1 : 0)};
        SourceText src = site.source();
        int l = imp.span().line();
        if (uses[0] > 0) return 0; // fix-all removes the import once its rewrites took the last use (FixAll)
        if (l >= src.lines().lineCount()) return 0; // the last line: nothing after it to join
        Span whole = new Span(l, 0, l + 1, 0);
        for (int k = 0; k < edits.size(); k++) {
            Diagnostic.Edit e = edits.get(k);
            if (e.span().line() == l && e.span().endLine() == l && e.newText().startsWith("\n")) {
                // the definition goes right after the import: it takes the import's place
                edits.set(k, new Diagnostic.Edit(whole, e.newText().substring(1) + "\n"));
                return 1;
            }
        }
        edits.add(new Diagnostic.Edit(whole, ""));
        return l < call.span().line() ? 1 : 0;
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
        return GuardedOp.definition(torch, OP, COMMENT, SIGNATURE, BODY);
    }

    static final String COMMENT = "graphmend: a warnings.warn that a compiled graph makes in program order (an ordered custom op);\n"
            + "the warning filters and the module's once-registry apply when the graph runs";
    static final String SIGNATURE = "(msg: str, category: str, module: str, filename: str, lineno: int) -> None";
    static final List<String> BODY = List.of(
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
            "_warnings.warn_explicit(msg, cls, filename, lineno, module, registry, scope)");
}
