package dev.graphmend.passes.rules;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.symbols.Target;
import dev.graphmend.passes.model.RuleInfo;
import dev.graphmend.passes.model.Severity;
import dev.graphmend.passes.analysis.FunctionContext;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.analysis.Statements;
import java.util.List;
import java.util.Set;

/**
 * GM102: {@code print}, {@code logging} functions and {@code Logger} methods, {@code warnings.warn}
 * in compiled code. Dynamo cannot put their output in the graph (GB0059, GB0291, GB0007).
 */
public final class SideEffectCall implements Rule {
    static final RuleInfo INFO = new RuleInfo("GM102", "side-effect-call", List.of("GB0059", "GB0291", "GB0007", "GB4841", "GB6215"),
            Severity.WARNING, "print, logging or warnings in compiled code").followingTorchVersion();

    static final Set<String> LOG_METHODS = Set.of("debug", "info", "warning", "warn", "error", "exception", "critical",
            "fatal", "log", "warning_once", "info_once", "warning_advice");

    @Override public RuleInfo info() { return INFO; }

    @Override
    public void check(FunctionContext f, Reporter out) {
        for (Stmt s : f.liveStatements()) {
            f.expressions(s).forEach(e -> {
                if (!(e instanceof Expr.Call c)) return;
                String what = sideEffect(f, c);
                if (what == null || isDeferred(f, c)) return;
                // ids as torch 2.15 reports them: the logging module's functions fail on Logger.handlers
                // (GB4841), getLogger on a logger-name comparison (GB6215)
                String id = switch (what) {
                    case "print()" -> "GB0059";
                    case "warnings.warn()" -> "GB0007";
                    case "a logging call" -> "GB4841";
                    case "the creation of a logger" -> "GB6215";
                    default -> "GB0291";
                };
                out.report(INFO, c, "Side effect in compiled code: Dynamo cannot record " + what + " in the graph, so the "
                        + "graph breaks at this call (" + id + "). " + (what.equals("print()") && !f.config().torchBefore(2, 15)
                        ? "Print inside the graph (torch._higher_order_ops.print) or skip it while compiling."
                        : "Defer it until after the graph or skip it while compiling."),
                        List.of(id));
            });
        }
    }

    /**
     * A call Dynamo defers: its callee is registered in the module with
     * {@code torch._dynamo.config.reorderable_logging_functions.add(callee)} and its arguments are
     * what deferral accepts (tensors, constants, strings; no keywords, no unpacking).
     */
    static boolean isDeferred(FunctionContext f, Expr.Call c) {
        String key = calleeKey(c);
        if (key == null || !isRegistered(f.module(), key)) return false;
        if (!c.keywords().isEmpty()) return false;
        for (Expr a : c.args()) {
            if (a instanceof Expr.Starred) return false;
            if (!(f.value(a).isTensor() || a instanceof Expr.Constant || a instanceof Expr.JoinedStr)) return false;
        }
        return true;
    }

    private static final SourceModule.Derived<java.util.Set<String>> REGISTERED = new SourceModule.Derived<>(
            "callees registered in reorderable_logging_functions", m -> {
                java.util.Set<String> out = new java.util.HashSet<>();
                String text = m.ir().document().text();
                String marker = "reorderable_logging_functions.add(";
                for (int at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) {
                    int close = text.indexOf(')', at + marker.length());
                    if (close > 0) out.add(text.substring(at + marker.length(), close));
                }
                return out;
            });

    /** Whether the module's text registers {@code callee} with {@code reorderable_logging_functions.add(callee)}. */
    public static boolean isRegistered(SourceModule m, String callee) {
        return m.derived(REGISTERED).contains(callee);
    }

    /** The callee as a registration names it: {@code print}, {@code logger.info}, {@code warnings.warn}. */
    public static String calleeKey(Expr.Call c) {
        if (c.func() instanceof Expr.Name n) return n.id();
        if (c.func() instanceof Expr.Attribute a && a.value() instanceof Expr.Name n) return n.id() + "." + a.attr();
        return null;
    }

    /** What kind of output call this is ("print()", "logging call", "warnings.warn()"), or null. */
    public static String sideEffect(FunctionContext f, Expr.Call c) {
        String qn = f.qualifiedName(c.func());
        if ("builtins.print".equals(qn)) return "print()";
        if ("warnings.warn".equals(qn)) return "warnings.warn()";
        if (qn != null && qn.startsWith("logging.") && LOG_METHODS.contains(qn.substring(8))) return "a logging call";
        if (isGetLogger(qn)) return "the creation of a logger";
        // every Logger method breaks (GB0291), not only the ones that print: isEnabledFor, setLevel, …
        if (c.func() instanceof Expr.Attribute a && isLogger(f, a.value())) return "a logger call";
        return null;
    }

    /** A logger: {@code logging.getLogger(...)} / {@code get_logger(...)} directly, or a name every binding of which is one. */
    static boolean isLogger(FunctionContext f, Expr e) {
        if (e instanceof Expr.Call c) return isGetLogger(f.qualifiedName(c.func()));
        if (e instanceof Expr.Name n) {
            Target t = f.module().names().resolve(n);
            if (t instanceof Target.ModuleMember mm && mm.path().indexOf('.') < 0) return assignedLogger(f.module(), mm.path());
            if (t instanceof Target.Local) return isGetLogger(f.origin(n));
            if (t instanceof Target.Imported imp && imp.qualifiedName() != null) {
                return imp.qualifiedName().endsWith(".logger") || imp.qualifiedName().equals("logging.root");
            }
        }
        if (e instanceof Expr.Attribute a && a.attr().equals("logger") && a.value() instanceof Expr.Name) return true;
        return false;
    }

    private static boolean isGetLogger(String qn) {
        return qn != null && (qn.equals("logging.getLogger") || qn.endsWith(".get_logger") || qn.endsWith("logging.getLogger"));
    }

    private static boolean assignedLogger(SourceModule m, String name) {
        List<Stmt.Assign> all = m.topLevelAssignments(name);
        for (Stmt.Assign a : all) {
            if (!(a.value() instanceof Expr.Call c) || !isGetLogger(m.names().qualifiedName(c.func()))) return false;
        }
        return !all.isEmpty();
    }
}
