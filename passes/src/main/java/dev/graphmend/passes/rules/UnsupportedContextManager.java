package dev.graphmend.passes.rules;

import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.ast.WithItem;
import dev.graphmend.passes.model.RuleInfo;
import dev.graphmend.passes.model.Severity;
import dev.graphmend.passes.analysis.FunctionContext;
import java.util.List;
import java.util.Set;

/**
 * GM204: context managers Dynamo does not support (GB0142): locks, {@code torch.device} used as
 * a context, anomaly detection, saved-tensor hooks, stdout redirection, RNG forking, profilers.
 * The object is traced to the call that made it ({@link FunctionContext#origin}), through
 * locals, module globals and attributes of project classes. CUDA stream and event context
 * managers are supported from torch 2.12 on, so they are reported only for older
 * {@code torch-version} settings. Everything else (no_grad, autocast, sdpa_kernel, user classes,
 * {@code @contextmanager} functions, nullcontext, suppress, …) is traced and not reported.
 */
public final class UnsupportedContextManager implements Rule {
    static final RuleInfo INFO = new RuleInfo("GM204", "unsupported-context-manager", List.of("GB0142", "GB0008", "GB0262", "GB0208", "GB0007"),
            Severity.INFORMATION, "A context manager Dynamo does not support").followingTorchVersion();

    /** Stream and event context managers: unsupported before torch 2.12. */
    private static final Set<String> STREAMS = Set.of("torch.cuda.stream", "torch.cuda.StreamContext",
            "torch.cuda.Stream", "torch.Stream", "torch.cuda.Event", "torch.Event", "torch.xpu.stream",
            "torch.cpu.stream", "torch.accelerator.stream", "torch.cuda.streams.Stream");

    /** Context managers torch 2.15 does not trace (checked with the Dynamo oracle, fixtures/GM204.py). */
    private static final Set<String> UNSUPPORTED = Set.of(
            "threading.Lock", "threading.RLock", "threading.Semaphore", "threading.BoundedSemaphore",
            "threading.Condition", "multiprocessing.Lock", "torch.device", "torch.autograd.detect_anomaly",
            "torch.autograd.set_detect_anomaly", "torch.autograd.graph.saved_tensors_hooks",
            "torch.autograd.graph.save_on_cpu", "contextlib.redirect_stdout", "contextlib.redirect_stderr",
            "torch.random.fork_rng", "torch.autograd.profiler.profile", "torch.profiler.profile", "builtins.open");

    @Override public RuleInfo info() { return INFO; }

    /** The id torch 2.15 reports: skipped torch.autograd internals, contextlib, RNG forking; else GB0142. */
    private static String idOf(String origin) {
        if (origin.startsWith("torch.autograd.detect_anomaly") || origin.startsWith("torch.autograd.set_detect_anomaly")
                || origin.startsWith("torch.autograd.graph.")) {
            return "GB0008";
        }
        if (origin.startsWith("contextlib.")) return "GB0262";
        if (origin.equals("torch.random.fork_rng")) return "GB0208";
        return "GB0142";
    }

    @Override
    public void check(FunctionContext f, Reporter out) {
        for (Stmt s : f.liveStatements()) {
            List<WithItem> items = s instanceof Stmt.With w ? w.items() : s instanceof Stmt.AsyncWith w ? w.items() : List.of();
            for (WithItem item : items) {
                String origin = f.origin(item.contextExpr());
                if (origin == null) continue;
                if (STREAMS.contains(origin)) {
                    if (f.config().torchBefore(2, 12)) {
                        out.report(INFO, item.contextExpr(), "Unsupported context manager: " + origin + " is traced by "
                                + "Dynamo only from torch 2.12 on (torch-version is " + f.config().torchVersion()
                                + "), so the graph breaks here (GB0142).", List.of("GB0142"));
                    }
                } else if (UNSUPPORTED.contains(origin)) {
                    // a lock made in the `with` itself: Dynamo cannot call the C allocator (GB0007, observed on
                    // torch 2.15); a lock made elsewhere reaches the `with` as an object it cannot enter (GB0142)
                    String id = origin.startsWith("threading.") && item.contextExpr() instanceof dev.graphmend.ir.ast.Expr.Call
                            ? "GB0007" : idOf(origin);
                    out.report(INFO, item.contextExpr(), "Unsupported context manager: Dynamo does not trace a `with` on "
                            + origin + "(...), so the graph breaks here (" + id + ").", List.of(id));
                }
            }
        }
    }
}
