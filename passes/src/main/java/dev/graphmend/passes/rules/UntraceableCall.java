package dev.graphmend.passes.rules;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.model.RuleInfo;
import dev.graphmend.passes.model.Severity;
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
 * ({@code numpy.random.*}, GB0033 on torch 2.15), reseeding ({@code torch.manual_seed}: GB0007), and sparse
 * tensors (made by torch's sparse factories or {@code to_sparse*()}, and read again after that break).
 */
public final class UntraceableCall implements Rule {
    static final RuleInfo INFO = new RuleInfo("GM203", "untraceable-call", List.of("GB9193", "GB0025", "GB0098", "GB0099", "GB4198", "GB0007", "GB0059", "GB0033", "GB0225", "GB4841", "GB0179", "GB0206", "GB8985", "GB0125", "GB0208", "GB0148", "GB0014", "GB7650", "GB6815", "GB0156", "GB0374", "GB0277", "GB0015"),
            Severity.INFORMATION, "A call Dynamo does not trace").followingTorchVersion();

    private static final Set<String> CLOCKS = Set.of("time", "perf_counter", "monotonic", "process_time", "time_ns",
            "perf_counter_ns", "monotonic_ns", "process_time_ns", "thread_time", "thread_time_ns", "sleep");

    private static final Set<String> PY_RANDOM = Set.of("random", "randint", "uniform", "choice", "shuffle",
            "randrange", "gauss", "sample");
    private static final Set<String> SEEDING = Set.of("torch.manual_seed", "torch.random.manual_seed", "torch.seed",
            "torch.random.seed", "torch.cuda.manual_seed", "torch.cuda.manual_seed_all");

    /** Factory functions that take {@code requires_grad=}. */
    private static final Set<String> CREATION = Set.of("torch.zeros", "torch.ones", "torch.empty", "torch.full",
            "torch.zeros_like", "torch.ones_like", "torch.empty_like", "torch.full_like", "torch.rand", "torch.randn",
            "torch.rand_like", "torch.randn_like", "torch.arange", "torch.linspace", "torch.eye", "torch.tensor");

    @Override public RuleInfo info() { return INFO; }

    @Override
    public void check(FunctionContext f, Reporter out) {
        for (Stmt s : f.liveStatements()) {
            f.expressions(s).forEach(e -> {
                if (e instanceof Expr.Call c) call(f, c, out);
            });
            if (s instanceof Stmt.Assign a) {
                bufferReassigned(f, a, out);
                requiresGradSet(f, a, out);
            }
        }
        // observed: torch 2.15 cannot wrap the sparse result after the break; torch 2.8 does
        // (fixtures/static/torch_2_8.py); 2.10-2.14 unobserved, taken as 2.15
        if (!f.config().torchBefore(2, 10)) sparseUses(f, out);
    }

    private static boolean isSparseFactory(FunctionContext f, Expr.Call c) {
        return isSparseFactory(f.function(), c);
    }

    private static boolean isSparseFactory(dev.graphmend.passes.analysis.FunctionRef fn, Expr.Call c) {
        String qn = fn.module().names().qualifiedName(c.func());
        return qn != null && SPARSE_FACTORIES.contains(qn); // Set.of rejects contains(null)
    }

    private static final Set<String> SPARSE_FACTORIES = Set.of("torch.sparse_coo_tensor", "torch.sparse_csr_tensor",
            "torch.sparse_csc_tensor", "torch.sparse_bsr_tensor", "torch.sparse_bsc_tensor", "torch.sparse_compressed_tensor");
    private static final Set<String> TO_SPARSE = Set.of("to_sparse", "to_sparse_coo", "to_sparse_csr", "to_sparse_csc",
            "to_sparse_bsr", "to_sparse_bsc");

    /** A call that makes a sparse tensor: torch's sparse factories, or {@code t.to_sparse*()} of a tensor. */
    private static boolean makesSparse(FunctionContext f, Expr e) {
        return makesSparse(f.function(), e) && (isSparseFactory(f, (Expr.Call) e)
                || f.value(((Expr.Attribute) ((Expr.Call) e).func()).value()).kind() != dev.graphmend.passes.analysis.ValueKind.STATIC);
    }

    /**
     * The first statement after {@code adj = <sparse tensor>} that reads {@code adj}: Dynamo resumes
     * after the break at the creation and cannot wrap the sparse tensor it gets back (GB0015,
     * observed on torch 2.15, fixtures/GM203.py; torch_geometric's to_torch_csr_tensor).
     */
    private static void sparseUses(FunctionContext f, Reporter out) {
        for (Stmt s : f.liveStatements()) {
            if (!(s instanceof Stmt.Assign a && a.targets().size() == 1 && a.targets().get(0) instanceof Expr.Name n
                    && (makesSparse(f, a.value()) || a.value() instanceof Expr.Call call && helperReturnsSparse(f, call)))) {
                continue;
            }
            // the statements after it in its own block: a read in an else branch never follows it
            List<Stmt> live = new java.util.ArrayList<>(List.of(a));
            List<Stmt> block = blockOf(f.function().def().body(), a);
            if (block != null) live.addAll(Statements.of(block.subList(block.indexOf(a) + 1, block.size())));
            int i = 0;
            for (int j = i + 1; j < live.size(); j++) {
                Expr.Name[] use = {null};
                f.expressions(live.get(j)).forEach(e -> {
                    if (use[0] == null && e instanceof Expr.Name u && u.id().equals(n.id())
                            && u.ctx() == dev.graphmend.ir.ast.ExprContext.Load) {
                        use[0] = u;
                    }
                });
                if (use[0] != null) {
                    out.report(INFO, use[0], "Sparse tensor read: " + n.id() + " holds a sparse tensor made above, which Dynamo "
                            + "cannot wrap when it resumes after that break; the graph breaks here again (GB0015).",
                            List.of("GB0015", "GB0277"));
                    break;
                }
                if (live.get(j) instanceof Stmt.Assign b && b.targets().stream().anyMatch(t -> t instanceof Expr.Name m
                        && m.id().equals(n.id()))) {
                    break; // rebound before any read
                }
            }
        }
    }

    private static void call(FunctionContext f, Expr.Call c, Reporter out) {
        String qn = f.qualifiedName(c.func());
        if (c.func() instanceof Expr.Attribute m && m.attr().equals("requires_grad_") && f.value(m.value()).isTensor()
                && f.config().torchBefore(2, 11)) {
            // observed (static/torch_2_10.py, GM203.py): torch 2.10 does not trace the call (GB0125);
            // torch 2.15 traces it while the tensor stays in the graph (MRA, MaskFormer in the sweep)
            report(out, c, "Tensor.requires_grad_() is not traced before torch 2.11 (torch-version is "
                    + f.config().torchVersion() + ")", "GB0125");
        } else if (c.func() instanceof Expr.Attribute m && m.attr().equals("to")
                && f.value(m.value()).kind() == dev.graphmend.passes.analysis.ValueKind.MODULE && f.config().torchBefore(2, 11)) {
            // observed: torch 2.10 breaks on nn.Module.to() in traced code (GB0208, Switch
            // Transformers' router); torch 2.15 traces it (static/torch_2_10.py, GM203.py)
            report(out, c, "nn.Module.to() is not traced before torch 2.11 (torch-version is " + f.config().torchVersion() + ")",
                    "GB0208");
        } else if (makesSparse(f, c) && (isSparseFactory(f, c) || !f.config().torchBefore(2, 10))) {
            // observed on torch 2.15 (fixtures/GM203.py): sparse_coo_tensor is skipped (GB0007),
            // the compressed layouts are unsupported (GB0374), to_sparse*() results cannot be wrapped
            // (GB0277; GB0015 once an earlier break made the frame fall back)
            boolean factory = qn != null && SPARSE_FACTORIES.contains(qn);
            String id = "torch.sparse_coo_tensor".equals(qn) ? "GB0007" : factory ? "GB0374" : "GB0277";
            report(out, c, "Dynamo does not trace sparse tensors (" + (factory ? qn + "()"
                    : "Tensor." + ((Expr.Attribute) c.func()).attr() + "()") + " makes one); keep the computation dense, or "
                    + "build the sparse tensor outside the compiled code", id, "GB0015");
        } else if (qn != null && qn.startsWith("time.") && CLOCKS.contains(qn.substring(5))) {
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
        } else if (qn != null && CREATION.contains(qn) && requiresGrad(c)) {
            // a leaf that needs grad, made inside the graph (observed GB0225, torch 2.15 and 2.10)
            report(out, c, qn + "(requires_grad=...) creates a tensor that requires grad inside the graph, which Dynamo "
                    + "does not trace when it is true", "GB0225");
        } else if ("torch._dynamo.graph_break".equals(qn)) {
            report(out, c, "torch._dynamo.graph_break() asks for a break", "GB0025");
        } else if ("copy.deepcopy".equals(qn) && c.args().size() == 1 && holdsTensors(f.value(c.args().get(0)).kind())) {
            report(out, c, "copy.deepcopy of a tensor is not traced", "GB4198");
        } else if ("copy.deepcopy".equals(qn) && f.config().torchBefore(2, 12)) {
            // observed: torch 2.10 breaks on deepcopy of a dict or a config (GB0179); 2.15 traces it
            report(out, c, "copy.deepcopy is not traced before torch 2.12 (torch-version is " + f.config().torchVersion() + ")",
                    "GB0179");
        } else if (qn != null && PACKED_SEQUENCES.contains(qn)) {
            // observed on torch 2.15 (fixtures/GM203.py): torch.nn.utils.rnn is on Dynamo's skip list
            report(out, c, qn.substring(qn.lastIndexOf('.') + 1) + "() is in a torch module Dynamo skips (packed sequences)",
                    "GB0007");
        } else if (qn != null && dev.graphmend.passes.analysis.TorchApi.isUntracedGetter(qn)) {
            report(out, c, qn + "() returns a Python value that Dynamo does not fold into the graph (torch.* op returned "
                    + "non-Tensor); read it once outside the compiled code", "GB0208");
        } else if (c.func() instanceof Expr.Attribute m && GENERATOR_METHODS.contains(m.attr()) && isGenerator(f, m.value())) {
            // observed on torch 2.15 (fixtures/GM203.py): every method of a torch.Generator object (GB7650)
            report(out, c, "torch.Generator." + m.attr() + "() is not traced; seed or read the generator outside the compiled code",
                    "GB7650");
        } else if (c.func() instanceof Expr.Attribute m && (m.attr().equals("set") || m.attr().equals("reset"))
                && "contextvars.ContextVar".equals(f.origin(m.value()))) {
            // observed on torch 2.15 (fixtures/GM203.py): ContextVar mutation (GB6815); get() traces
            report(out, c, "ContextVar." + m.attr() + "() mutates a context variable, which Dynamo does not trace", "GB6815");
        } else if (c.func() instanceof Expr.Attribute m && m.attr().equals("get") && f.config().torchBefore(2, 11)
                && "contextvars.ContextVar".equals(f.origin(m.value()))) {
            // observed in the torch 2.10 sweep (transformers' output capturing): GB0156; torch 2.15 traces it
            report(out, c, "ContextVar.get() is not traced before torch 2.11 (torch-version is " + f.config().torchVersion() + ")",
                    "GB0156");
        } else if (!f.config().torchBefore(2, 10) && isRecurrentModule(f.origin(c.func()))) {
            // observed: torch 2.15 a delayed unsupported call (GB0148, fixtures/GM203.py); torch 2.10
            // "Attempted to wrap RNN, GRU, or LSTM" (GB0014, timm's sequencer in the sweep); torch 2.8
            // traces the call (fixtures/static/torch_2_8.py)
            report(out, c, "nn.LSTM, nn.GRU and nn.RNN modules are not traced (cuDNN-style fused recurrences)", "GB0148", "GB0014");
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

    /** The statement list that holds {@code target} directly, searched through nested blocks; null if none. */
    private static List<Stmt> blockOf(List<Stmt> body, Stmt target) {
        for (Stmt s : body) if (s == target) return body;
        for (Stmt s : body) {
            List<List<Stmt>> inner = s instanceof Stmt.If x ? List.of(x.body(), x.orelse())
                    : s instanceof Stmt.For x ? List.of(x.body(), x.orelse())
                    : s instanceof Stmt.While x ? List.of(x.body(), x.orelse())
                    : s instanceof Stmt.With x ? List.of(x.body())
                    : s instanceof Stmt.Try x ? List.of(x.body(), x.orelse(), x.finalbody())
                    : List.of();
            for (List<Stmt> b : inner) {
                List<Stmt> found = blockOf(b, target);
                if (found != null) return found;
            }
        }
        return null;
    }

    /** A call of a project helper that returns a sparse tensor (torch_geometric's to_torch_coo_tensor). */
    private static boolean helperReturnsSparse(FunctionContext f, Expr.Call call) {
        Callee callee = f.callee(call);
        if (callee == null) return false;
        f.consultBody(callee.function()); // the answer reads the callee's body: an edit there changes it
        return returnsSparse(callee.function());
    }

    /** A project function that returns what a sparse factory or {@code to_sparse*()} makes, directly or through a local. */
    private static boolean returnsSparse(dev.graphmend.passes.analysis.FunctionRef fn) {
        java.util.Set<String> sparseLocals = new java.util.HashSet<>();
        for (Stmt s : Statements.of(fn.def().body())) {
            if (s instanceof Stmt.Assign a && a.targets().size() == 1 && a.targets().get(0) instanceof Expr.Name n
                    && makesSparse(fn, a.value())) {
                sparseLocals.add(n.id());
            }
            if (s instanceof Stmt.Return r && r.value() != null && (makesSparse(fn, r.value())
                    || r.value() instanceof Expr.Name n && sparseLocals.contains(n.id()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * A sparse factory call, or {@code x.to_sparse*()} by name alone: the method names are
     * torch.Tensor's own (PyG's SparseTensor converts with to_torch_sparse_*), so any receiver but a
     * known Python value ({@link #makesSparse(FunctionContext, Expr)} checks that where it can).
     */
    private static boolean makesSparse(dev.graphmend.passes.analysis.FunctionRef fn, Expr e) {
        if (!(e instanceof Expr.Call c)) return false;
        return isSparseFactory(fn, c) || c.func() instanceof Expr.Attribute m && TO_SPARSE.contains(m.attr());
    }

    private static final Set<String> PACKED_SEQUENCES = Set.of("torch.nn.utils.rnn.pack_padded_sequence",
            "torch.nn.utils.rnn.pad_packed_sequence", "torch.nn.utils.rnn.pack_sequence", "torch.nn.utils.rnn.unpack_sequence");

    private static final Set<String> GENERATOR_METHODS = Set.of("seed", "manual_seed", "initial_seed", "get_state",
            "set_state", "get_offset", "set_offset", "graphsafe_get_state", "graphsafe_set_state", "clone_state");

    /**
     * A torch.Generator: {@code torch.default_generator}, an element of
     * {@code torch.cuda.default_generators}, or a value made by {@code torch.Generator(...)}.
     */
    private static boolean isGenerator(FunctionContext f, Expr e) {
        Expr named = e instanceof Expr.Subscript s ? s.value() : e;
        String qn = f.qualifiedName(named);
        if (e instanceof Expr.Subscript) return "torch.cuda.default_generators".equals(qn);
        return "torch.default_generator".equals(qn) || "torch.Generator".equals(f.origin(e));
    }

    /** The recurrent module classes Dynamo will not wrap (their cells, nn.LSTMCell and the like, trace). */
    private static boolean isRecurrentModule(String origin) {
        if (origin == null) return false;
        return switch (origin) {
            case "torch.nn.LSTM", "torch.nn.GRU", "torch.nn.RNN", "torch.nn.modules.rnn.LSTM", "torch.nn.modules.rnn.GRU",
                    "torch.nn.modules.rnn.RNN" -> true;
            default -> false;
        };
    }

    /** {@code requires_grad=} given and not the literal False. */
    private static boolean requiresGrad(Expr.Call c) {
        for (var k : c.keywords()) {
            if ("requires_grad".equals(k.arg())) return !(k.value() instanceof Expr.Constant kc && Boolean.FALSE.equals(kc.value()));
        }
        return false;
    }

    /**
     * {@code self.buf = self.buf.to(...)} in traced code where {@code buf} was made an
     * {@code nn.Buffer}: {@code .to()} keeps the Buffer subclass, so nn.Module's
     * {@code __setattr__} reads the value's {@code persistent}, which Dynamo does not model
     * (GB4841, observed on torch 2.15). A plain tensor assigned to it ({@code self.buf + x}) and a
     * buffer made with {@code register_buffer} trace (fixtures/GM203.py).
     */
    private static void bufferReassigned(FunctionContext f, Stmt.Assign a, Reporter out) {
        var owner = f.function().owner();
        if (owner == null || f.function().def().name().equals("__init__")) return;
        if (f.config().torchBefore(2, 11)) return; // observed: torch 2.10 traces it (fixtures/static/torch_2_10.py)
        if (!(a.value() instanceof Expr.Call c && c.func() instanceof Expr.Attribute m && m.attr().equals("to")
                && m.value() instanceof Expr.Attribute src
                && f.value(src.value()).kind() == dev.graphmend.passes.analysis.ValueKind.SELF
                && f.project().isBufferAttribute(owner, src.attr()))) {
            return;
        }
        for (Expr t : a.targets()) {
            if (t instanceof Expr.Attribute at && f.value(at.value()).kind() == dev.graphmend.passes.analysis.ValueKind.SELF
                    && f.project().isBufferAttribute(owner, at.attr())) {
                out.report(INFO, t, "Untraceable call: assigning `.to()` of an nn.Buffer (still a Buffer) to `self." + at.attr()
                        + "` runs nn.Module's buffer registration, which Dynamo does not trace (GB4841). Move the buffer once outside the "
                        + "compiled code, or keep the moved copy in a local.", List.of("GB4841"));
            }
        }
    }

    /**
     * {@code t.requires_grad = True} in traced code (wav2vec2's feature encoder in training):
     * torch 2.10 does not trace the setattr (GB0206); torch 2.15 traces it but breaks when grad is
     * enabled, since the intermediate would leave the graph needing grad (GB8985). Observed with
     * the Dynamo oracle: fixtures/static/torch_2_10.py and GM203.py.
     */
    private static void requiresGradSet(FunctionContext f, Stmt.Assign a, Reporter out) {
        boolean old = f.config().torchBefore(2, 11);
        for (Expr t : a.targets()) {
            if (t instanceof Expr.Attribute at && at.attr().equals("requires_grad") && f.value(at.value()).isTensor()) {
                out.report(INFO, t, old
                        ? "Untraceable call: setting a tensor's requires_grad is not traced before torch 2.11 (torch-version is "
                                + f.config().torchVersion() + "); the graph breaks here (GB0206)."
                        : "Untraceable call: setting requires_grad on a tensor made inside the graph breaks the graph when grad "
                                + "is enabled (a training step): Dynamo cannot return it as a leaf that needs grad (GB8985).",
                        List.of(old ? "GB0206" : "GB8985"));
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
