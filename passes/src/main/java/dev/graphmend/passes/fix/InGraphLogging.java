package dev.graphmend.passes.fix;

import dev.graphmend.passes.model.FixInfo;
import dev.graphmend.passes.model.Safety;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.analysis.FunctionContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * GM102 {@code logger.<method>("literal")} on a module-level logger → {@code T.ops.graphmend.log(name,
 * "<method>", "literal", __file__, <line>, "<function>")}: an effectful custom operator (registered
 * ORDERED with torch.library, the way torch registers its in-graph print) that the compiled graph
 * calls in program order, and that does what the logger call did when the graph runs: for
 * debug/info/warning/error/critical the logger's level check, filters and handlers with a record that
 * names the user's file, line and function; for a method added to Logger ({@code warning_once}) the
 * method itself, so its once-only cache holds. The operator is defined once per file by a guarded
 * block after the logger's assignment; the first file imported registers it, the others find it.
 * Observed on torch 2.10 and 2.15 (eager, aot_eager, inductor, fullgraph, in an inlined submodule):
 * the same records in the same order, no break (docs/rules/GM102.md).
 */
public final class InGraphLogging implements Transformation {
    /** Logger methods that need what a literal-only call cannot give (a level argument, exc_info) or are aliases. */
    private static final Set<String> OTHER_STANDARD = Set.of("exception", "log", "warn", "fatal");
    static final String OP = "graphmend::log";

    static final FixInfo INFO = new FixInfo("Log inside the graph", Safety.SAFE, "2.10");

    @Override public FixInfo info() { return INFO; }

    @Override
    public Proposal propose(FixSite site) {
        if (!(site.at() instanceof Expr.Call call)) return Proposal.notApplicable();
        if (!(call.func() instanceof Expr.Attribute a && a.value() instanceof Expr.Name logger)) return Proposal.notApplicable();
        FunctionContext f = site.function();
        String qn = f.qualifiedName(call.func());
        if (qn != null && qn.startsWith("logging.")) return Proposal.notApplicable();
        Expr name = SideEffectSites.moduleLoggerName(site, logger);
        if (name == null) {
            return Proposal.decline("the logger is not a module-level logging.getLogger(__name__ or a literal), "
                    + "so the in-graph logger call cannot name it");
        }
        if (f.config().torchBefore(INFO.sinceTorch())) {
            return Proposal.decline("the in-graph logger call was observed to work from torch 2.10 (torch-version is "
                    + f.config().torchVersion() + ")");
        }
        Stmt.Expr stmt = SideEffectSites.statement(site);
        if (stmt == null) return Proposal.decline("the call's result is used, so it cannot become an in-graph logger call");
        if (TorchScriptCode.mayCompile(site)) return Proposal.decline(TorchScriptCode.reason("the in-graph logging operator"));
        String method = a.attr();
        if (OTHER_STANDARD.contains(method)) {
            return Proposal.decline("logger." + method + "() is not rewritten into the graph (only debug, info, warning, error, "
                    + "critical and methods added to Logger such as warning_once)");
        }
        if (call.args().size() != 1 || !call.keywords().isEmpty()
                || !(call.args().get(0) instanceof Expr.Constant c && c.value() instanceof String)) {
            return Proposal.decline("the in-graph logger call takes one literal message (no %-arguments, keywords or "
                    + "f-strings)");
        }
        SourceText src = site.source();
        String torch = src.unconditionalTorchAlias();
        if (torch == null) return Proposal.decline("torch is not imported unconditionally at module level in this file (the operator's definition runs at import time, also where torch is missing)");
        Expr.Name loggerName = logger;
        return Proposal.lazy("Log inside the graph (an ordered custom op)", Safety.SAFE,
                "Safe: the compiled graph makes the logger call at the same point, with the logger's level, filters and "
                        + "handlers applied when it runs and a record naming this file, the call's line and "
                        + "function; methods added to Logger (warning_once) are called as they are. The fix "
                        + "adds, once per file, a guarded definition of the graphmend::log operator after the logger. "
                        + "The record's line is written into the call; graphmend fix sets it again when lines above move.", () -> {
            List<Diagnostic.Edit> edits = new ArrayList<>();
            int after = Math.max(SideEffectSites.torchImportLine(site), SideEffectSites.assignmentLine(site, loggerName.id()));
            int line = GuardedOp.define(site, OP, after, helper(torch), call.span().line(), edits);
            edits.add(new Diagnostic.Edit(call.span(), torch + ".ops.graphmend.log(" + src.text(name) + ", \"" + method + "\", "
                    + src.text(call.args().get(0)) + ", __file__, " + line + ", \"" + f.function().def().name() + "\")"));
            return edits;
        });
    }

    /** The guarded definition of the operator, at module level. */
    static String helper(String torch) {
        return GuardedOp.definition(torch, OP, COMMENT, SIGNATURE, BODY);
    }

    static final String COMMENT = "graphmend: a logger call that a compiled graph makes in program order (an ordered custom op);\n"
            + "the logger's level, filters and handlers apply when the graph runs";
    static final String SIGNATURE = "(name: str, method: str, msg: str, pathname: str, lineno: int, func: str) -> None";
    static final List<String> BODY = List.of(
            "import logging as _logging",
            "",
            "logger = _logging.getLogger(name)",
            "if method not in (\"debug\", \"info\", \"warning\", \"error\", \"critical\"):",
            "    getattr(logger, method)(msg)  # a method added to Logger, such as warning_once",
            "elif logger.isEnabledFor(_logging.getLevelName(method.upper())):",
            "    level = _logging.getLevelName(method.upper())",
            "    logger.handle(logger.makeRecord(logger.name, level, pathname, lineno, msg, (), None, func))");
}
