package dev.graphmend.passes.rules;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.RuleInfo;
import dev.graphmend.passes.Severity;
import dev.graphmend.passes.analysis.Callee;
import dev.graphmend.passes.analysis.CompileRegions;
import dev.graphmend.passes.analysis.FunctionContext;
import dev.graphmend.passes.analysis.Statements;
import java.util.List;
import java.util.Set;

/**
 * GM203: calls Dynamo will not trace: clocks of the {@code time} module, {@code breakpoint()} and
 * {@code pdb}, {@code torch._dynamo.graph_break()}, functions decorated with
 * {@code @torch.compiler.disable}, {@code copy.deepcopy} of a tensor, host randomness
 * ({@code numpy.random.*}, GB0033 on torch 2.15) and reseeding ({@code torch.manual_seed}: GB0007).
 */
public final class UntraceableCall implements Rule {
    static final RuleInfo INFO = new RuleInfo("GM203", "untraceable-call", List.of("GB9193", "GB0025", "GB0098", "GB0099", "GB4198", "GB0007", "GB0059", "GB0033"),
            Severity.INFORMATION, "A call Dynamo does not trace");

    private static final Set<String> CLOCKS = Set.of("time", "perf_counter", "monotonic", "process_time", "time_ns",
            "perf_counter_ns", "monotonic_ns", "process_time_ns", "thread_time", "thread_time_ns", "sleep");

    private static final Set<String> PY_RANDOM = Set.of("random", "randint", "uniform", "choice", "shuffle",
            "randrange", "gauss", "sample");
    private static final Set<String> SEEDING = Set.of("torch.manual_seed", "torch.random.manual_seed", "torch.seed",
            "torch.random.seed", "torch.cuda.manual_seed", "torch.cuda.manual_seed_all");

    @Override public RuleInfo info() { return INFO; }

    @Override
    public void check(FunctionContext f, Reporter out) {
        for (Stmt s : f.liveStatements()) {
            f.expressions(s).forEach(e -> {
                if (e instanceof Expr.Call c) call(f, c, out);
            });
        }
    }

    private static void call(FunctionContext f, Expr.Call c, Reporter out) {
        String qn = f.qualifiedName(c.func());
        if (qn != null && qn.startsWith("time.") && CLOCKS.contains(qn.substring(5))) {
            report(out, c, qn + "() reads the host clock, which Dynamo does not trace", "GB9193");
        } else if ("builtins.breakpoint".equals(qn) || "pdb.set_trace".equals(qn)) {
            report(out, c, "the debugger cannot stop inside a graph", "builtins.breakpoint".equals(qn) ? "GB0059" : "GB0007");
        } else if (qn != null && (qn.startsWith("numpy.random.") || qn.equals("numpy.random"))) {
            report(out, c, qn + "() draws host random numbers, which Dynamo reads as a data-dependent value", "GB0033");
        } else if (qn != null && qn.startsWith("random.") && PY_RANDOM.contains(qn.substring(7)) && f.config().torchBefore(2, 11)) {
            // observed: torch 2.10 skips random.Random's methods (GB0007); torch 2.15 traces them
            report(out, c, qn + "() is skipped by Dynamo before torch 2.11 (torch-version is " + f.config().torchVersion() + ")",
                    "GB0007");
        } else if (qn != null && SEEDING.contains(qn)) {
            report(out, c, qn + "() reseeds the generator, which Dynamo does not trace (it skips torch.random)", "GB0007");
        } else if ("torch._dynamo.graph_break".equals(qn)) {
            report(out, c, "torch._dynamo.graph_break() asks for a break", "GB0025");
        } else if ("copy.deepcopy".equals(qn) && c.args().size() == 1 && holdsTensors(f.value(c.args().get(0)).kind())) {
            report(out, c, "copy.deepcopy of a tensor is not traced", "GB4198");
        } else if (c.func() instanceof Expr.Name n && isDisableAlias(f, n)) {
            report(out, c, n.id() + " is wrapped by torch.compiler.disable, so Dynamo calls it outside the graph", "GB0098", "GB0099");
        } else {
            Callee callee = f.callee(c);
            if (callee != null && CompileRegions.isDisabled(callee.function())) {
                report(out, c, callee.function().name() + " is decorated with @torch.compiler.disable, so Dynamo calls it "
                        + "outside the graph", "GB0098", "GB0099");
            }
        }
    }

    private static boolean holdsTensors(dev.graphmend.passes.analysis.ValueKind k) {
        return k.isTensor() || k == dev.graphmend.passes.analysis.ValueKind.TENSOR_SEQUENCE;
    }

    /** {@code name = torch.compiler.disable(fn)}: every assignment of the name is such a call. */
    private static boolean isDisableAlias(FunctionContext f, Expr.Name n) {
        List<Expr> values = f.assignedValues(n);
        if (values == null || values.isEmpty()) return false;
        for (Expr v : values) {
            if (!(v instanceof Expr.Call c) || !dev.graphmend.passes.analysis.TorchApi.isDisableDecorator(f.qualifiedName(c.func()))) {
                return false;
            }
        }
        return true;
    }

    private static void report(Reporter out, Expr.Call c, String why, String... ids) {
        out.report(INFO, c, "Untraceable call: " + why + "; the graph breaks here (" + ids[0] + ").", List.of(ids));
    }
}
