package dev.graphmend.passes.rules;

import dev.graphmend.ir.ast.Arg;
import dev.graphmend.ir.ast.Arguments;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.analysis.ClassInfo;
import dev.graphmend.passes.analysis.FunctionContext;
import dev.graphmend.passes.analysis.Val;
import dev.graphmend.passes.analysis.ValueKind;
import dev.graphmend.passes.model.RuleInfo;
import dev.graphmend.passes.model.Severity;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * GM205: the training step written inside a compiled function: {@code loss.backward()} (GB0123),
 * {@code torch.autograd.grad} (GB9186) and {@code torch.autograd.backward} (GB0007), an optimizer's
 * {@code step()} (torch.optim breaks on purpose around the update: GB0025; GB0007 once an LR scheduler
 * has wrapped the step in torch.optim.lr_scheduler, which Dynamo skips) and {@code zero_grad()}
 * (GB0008), an LR scheduler's {@code step()} / {@code get_last_lr()} and a GradScaler's
 * {@code scale}/{@code step}/{@code update}/{@code unscale_} (torch.optim.lr_scheduler and torch.amp
 * are skipped by Dynamo: GB0008). Observed on torch 2.15 (fixtures/GM205.py, docs/rules/GM205.md).
 *
 * <p>The receiver must be known for what it is, since {@code step()} is also a method of RL
 * environments, diffusion schedulers and many project classes: made by a {@code torch.optim} /
 * {@code torch.optim.lr_scheduler} / GradScaler constructor (followed through locals, module
 * globals and attributes of project classes), an instance of a project subclass of one (for the
 * methods the subclass does not define itself: a project's own {@code step} is traced), a parameter
 * annotated with such a class, or, when nothing else says what it is, a name that says it
 * ({@code optimizer}, {@code opt}, {@code scheduler}, {@code scaler}, …) together with the method.
 * An nn.Module's {@code zero_grad()} is traced and never reported.
 */
public final class TrainingStepCall implements Rule {
    static final RuleInfo INFO = new RuleInfo("GM205", "training-step-call",
            List.of("GB0123", "GB9186", "GB0007", "GB0025", "GB0008"), Severity.INFORMATION,
            "A training-step call (backward, optimizer, LR scheduler, gradient scaler) in a compiled function");

    /** What a receiver is: the three kinds of training-loop objects torch.compile cannot take in. */
    enum Role {
        OPTIMIZER("optimizer", Set.of("step", "zero_grad")),
        SCHEDULER("LR scheduler", Set.of("step", "get_last_lr")),
        SCALER("GradScaler", Set.of("scale", "step", "update", "unscale_"));

        final String label;
        final Set<String> methods;

        Role(String label, Set<String> methods) {
            this.label = label;
            this.methods = methods;
        }
    }

    /** A receiver's role and the evidence for it, said in the message. */
    record Known(Role role, String evidence) {
        boolean byName() { return evidence != null && evidence.startsWith("named "); }
    }

    private static final Set<String> SCALERS = Set.of("torch.amp.GradScaler", "torch.amp.grad_scaler.GradScaler",
            "torch.cuda.amp.GradScaler", "torch.cuda.amp.grad_scaler.GradScaler", "torch.cpu.amp.GradScaler",
            "torch.cpu.amp.grad_scaler.GradScaler");

    /** Kinds the analysis knows are not a training-loop object (a module's zero_grad is traced). */
    private static final Set<ValueKind> NOT_TRAINING_OBJECTS = Set.of(ValueKind.MODULE, ValueKind.SELF, ValueKind.STATIC,
            ValueKind.NONE, ValueKind.NUMPY_ARRAY, ValueKind.TENSOR_SEQUENCE, ValueKind.BOOL_TENSOR);

    @Override public RuleInfo info() { return INFO; }

    @Override
    public void check(FunctionContext f, Reporter out) {
        for (Stmt s : f.liveStatements()) {
            Set<Expr.Call> reported = new HashSet<>();
            List<Expr.Call> calls = new ArrayList<>();
            f.expressions(s).forEach(e -> {
                if (e instanceof Expr.Call c) calls.add(c);
            });
            // receivers first: in `scaler.scale(loss).backward()` the scale call is where Dynamo stops
            calls.sort((a, b) -> Integer.compare(depth(a), depth(b)));
            for (Expr.Call c : calls) {
                if (call(f, c, reported, out)) reported.add(c);
            }
        }
    }

    /** How deep a call's receiver chain goes ({@code a.b().c()} is deeper than {@code a.b()}, its receiver). */
    private static int depth(Expr.Call c) {
        int d = 0;
        Expr e = c.func();
        while (e instanceof Expr.Attribute a) {
            d++;
            e = a.value() instanceof Expr.Call inner ? inner.func() : a.value();
        }
        return d;
    }

    private static boolean call(FunctionContext f, Expr.Call c, Set<Expr.Call> reported, Reporter out) {
        String qn = f.qualifiedName(c.func());
        if ("torch.autograd.grad".equals(qn)) {
            out.report(INFO, c, "Training step in a compiled function: torch.autograd.grad(...) runs a backward pass, which "
                    + "Dynamo does not trace by default (torch._dynamo.config.trace_autograd_ops is off), so the graph breaks "
                    + "here (GB9186). " + AUTOGRAD_HINT, List.of("GB9186"));
            return true;
        }
        if ("torch.autograd.backward".equals(qn)) {
            out.report(INFO, c, "Training step in a compiled function: torch.autograd.backward(...) runs the backward pass; "
                    + "Dynamo skips torch.autograd, so the graph breaks here (GB0007). " + AUTOGRAD_HINT, List.of("GB0007"));
            return true;
        }
        if (!(c.func() instanceof Expr.Attribute m)) return false;
        String method = m.attr();
        if (method.equals("backward")) {
            if (m.value() instanceof Expr.Call inner && reported.contains(inner)) return false; // one break per site
            if (!isLoss(f, m.value())) return false;
            out.report(INFO, c, "Training step in a compiled function: Tensor.backward() runs autograd's backward pass, which "
                    + "Dynamo does not trace, so the graph breaks here (GB0123). " + AUTOGRAD_HINT, List.of("GB0123"));
            return true;
        }
        if (!isAnyRoleMethod(method)) return false;
        Known k = classify(f, m.value(), method);
        if (k == null || !k.role().methods.contains(method)) return false;
        // a name is weaker evidence: these methods take at most one argument (closure, metrics, optimizer,
        // outputs), unlike a diffusion scheduler's step(model_output, t, sample) or an RL env's step
        if (k.byName() && c.args().size() + c.keywords().size() > 1) return false;
        String recv = text(m.value());
        if (recv == null) recv = "the " + k.role().label;
        String shown = recv + "." + method + (c.args().isEmpty() && c.keywords().isEmpty() ? "()" : "(...)");
        switch (k.role()) {
            case OPTIMIZER -> {
                if (method.equals("step")) {
                    out.report(INFO, c, "Training step in a compiled function: " + shown + " (" + k.evidence() + ") "
                            + "updates the parameters; torch.optim breaks the graph on purpose around the update "
                            + "(torch._dynamo.graph_break() in Optimizer.step), so the graph breaks here (GB0025; GB0007 when "
                            + "an LR scheduler wraps the optimizer's step, since Dynamo skips torch.optim.lr_scheduler). Call the "
                            + "step outside the compiled function, or compile it on its own "
                            + "(@torch.compile(fullgraph=False) def opt_step(): " + recv + ".step()): Dynamo still breaks "
                            + "at that call, as torch.optim asks, but can compile the update between the breaks.",
                            List.of("GB0025", "GB0007"));
                } else {
                    out.report(INFO, c, "Training step in a compiled function: " + shown + " (" + k.evidence()
                            + ") is wrapped by torch._disable_dynamo in torch.optim, so Dynamo skips it and the graph breaks "
                            + "here (GB0008). Call it outside the compiled function (before the compiled forward).",
                            List.of("GB0008"));
                }
            }
            case SCHEDULER -> out.report(INFO, c, "Training step in a compiled function: " + shown + " ("
                    + k.evidence() + "): Dynamo skips torch.optim.lr_scheduler, so the graph breaks here (GB0008). Step "
                    + "the scheduler outside the compiled function, once per step or epoch as the training loop does.",
                    List.of("GB0008"));
            case SCALER -> out.report(INFO, c, "Training step in a compiled function: " + shown + " ("
                    + k.evidence() + "): Dynamo skips torch.amp's GradScaler, so the graph breaks here (GB0008). Compile the "
                    + "forward and the loss only (torch.compile(model), or a compiled loss function) and run scale(loss)"
                    + ".backward(), step(optimizer) and update() outside it.", List.of("GB0008"));
        }
        return true;
    }

    private static final String AUTOGRAD_HINT = "Compile the forward and the loss only (torch.compile(model), or a "
            + "compiled loss function) and run the backward outside; compiled autograd "
            + "(torch._dynamo.config.compiled_autograd = True) compiles the backward as a graph of its own, while the "
            + "forward graph still ends at this call.";

    private static boolean isAnyRoleMethod(String method) {
        for (Role r : Role.values()) if (r.methods.contains(method)) return true;
        return false;
    }

    /**
     * Whether {@code x.backward()} is a tensor's backward: the analysis knows x is a tensor, or
     * x's type is unknown and its name says it is a loss ({@code outputs.loss}, {@code total_loss}).
     */
    private static boolean isLoss(FunctionContext f, Expr recv) {
        Val v = f.value(recv);
        if (v.isTensor()) return true;
        if (v.kind() != ValueKind.UNKNOWN && v.kind() != ValueKind.MAYBE_TENSOR) return false;
        String name = lastName(recv);
        return name != null && name.toLowerCase(Locale.ROOT).contains("loss");
    }

    /**
     * What a method's receiver is, or null when nothing says it is an optimizer, a scheduler or a
     * scaler. Known types win over names: a module, a project class that is no optimizer, or a value
     * made by any other known callable is never taken for one because of its name.
     */
    static Known classify(FunctionContext f, Expr recv, String method) {
        Val v = f.value(recv);
        if (NOT_TRAINING_OBJECTS.contains(v.kind())) return null;
        if (v.cls() != null) return projectClass(v.cls(), method);
        ClassInfo made = madeBy(f, recv);
        if (made != null) return projectClass(made, method);
        Known annotated = annotated(f, recv, method);
        if (annotated != null) return annotated.role() == null ? null : annotated;
        String origin = f.origin(recv);
        // FunctionContext.origin gives the callable that made the value, or else the expression's own
        // qualified name (an imported global), which says nothing of what it holds
        if (origin != null && !origin.equals(f.qualifiedName(recv))) {
            Role r = torchRole(origin);
            if (r != null) return new Known(r, "made by " + origin + "(...)");
            if (origin.equals("torch") || origin.startsWith("torch.")) return null; // some other torch object
            // a factory whose name says what it makes (create_optimizer, get_linear_schedule_with_warmup)
            Role byFactory = roleByFactoryName(origin.substring(origin.lastIndexOf('.') + 1));
            if (byFactory != null) return new Known(byFactory, "made by " + origin + "(...)");
            return null; // made by some other callable: an environment, a diffusion scheduler, a config
        }
        String name = lastName(recv);
        Role r = name == null ? null : roleByName(name, method);
        return r == null ? null : new Known(r, "named `" + name + "`; the analysis cannot see what it is");
    }

    /** The role of a torch class, by its qualified name. */
    static Role torchRole(String qn) {
        if (SCALERS.contains(qn)) return Role.SCALER;
        if (qn.startsWith("torch.optim.lr_scheduler.")) return upper(qn) ? Role.SCHEDULER : null;
        if (qn.startsWith("torch.optim.") && !qn.startsWith("torch.optim.swa_utils.")) {
            return upper(qn) ? Role.OPTIMIZER : null;
        }
        return null;
    }

    private static boolean upper(String qn) {
        String last = qn.substring(qn.lastIndexOf('.') + 1);
        return !last.isEmpty() && Character.isUpperCase(last.charAt(0));
    }

    /**
     * A project class that derives from a torch optimizer, scheduler or scaler, for a method it
     * inherits from torch; a method the project defines is traced like any other (the analysis
     * follows the call into it). Null for every other project class.
     */
    private static Known projectClass(ClassInfo cls, String method) {
        Role r = inheritedRole(cls, 0);
        if (r == null || cls.method(method) != null) return null;
        return new Known(r, "an instance of " + cls.name() + ", a subclass of a torch " + r.label);
    }

    /** The project class every assignment of a name calls ({@code OPT = MySGD(params)}), or null. */
    private static ClassInfo madeBy(FunctionContext f, Expr recv) {
        if (!(recv instanceof Expr.Name n)) return null;
        List<Expr> values = f.assignedValues(n);
        if (values == null || values.isEmpty()) return null;
        ClassInfo cls = null;
        for (Expr v : values) {
            ClassInfo c = v instanceof Expr.Call call ? f.project().resolveClass(f.module(), call.func()) : null;
            if (c == null || cls != null && c != cls) return null;
            cls = c;
        }
        return cls;
    }

    private static Role inheritedRole(ClassInfo cls, int depth) {
        if (depth > 20) return null;
        for (Expr b : cls.def().bases()) {
            String qn = cls.module().names().qualifiedName(b);
            if (qn == null) continue;
            if (qn.equals("torch.optim.Optimizer") || qn.equals("torch.optim.optimizer.Optimizer")) return Role.OPTIMIZER;
            Role r = torchRole(qn);
            if (r != null) return r;
        }
        for (ClassInfo b : cls.bases()) {
            Role r = inheritedRole(b, depth + 1);
            if (r != null) return r;
        }
        return null;
    }

    /**
     * A parameter of this function with an annotation: the annotation says what it is. A Known with
     * a null role when the annotation names something else; null when there is no annotation.
     */
    private static Known annotated(FunctionContext f, Expr recv, String method) {
        if (!(recv instanceof Expr.Name n)) return null;
        Arguments a = f.function().def().args();
        List<Arg> all = new ArrayList<>(a.posonlyargs());
        all.addAll(a.args());
        all.addAll(a.kwonlyargs());
        for (Arg p : all) {
            if (!p.arg().equals(n.id()) || p.annotation() == null) continue;
            Expr ann = p.annotation();
            String qn = f.qualifiedName(ann);
            if (qn != null) {
                if (qn.equals("torch.optim.Optimizer") || qn.equals("torch.optim.optimizer.Optimizer")) {
                    return new Known(Role.OPTIMIZER, "annotated " + qn);
                }
                Role r = torchRole(qn);
                if (r != null) return new Known(r, "annotated " + qn);
            }
            ClassInfo cls = f.project().resolveClass(f.module(), ann);
            if (cls != null) {
                Known k = projectClass(cls, method);
                return k != null ? k : new Known(null, null);
            }
            return new Known(null, null);
        }
        return null;
    }

    /** A receiver's role from its own name, for the methods that role has ({@code optimizer.step}, {@code scaler.update}). */
    static Role roleByName(String name, String method) {
        String n = name.toLowerCase(Locale.ROOT);
        if ((n.equals("opt") || n.startsWith("optim") || n.endsWith("_optimizer") || n.endsWith("_optimiser")
                || n.endsWith("_optim") || n.endsWith("_opt")) && Role.OPTIMIZER.methods.contains(method)) {
            return Role.OPTIMIZER;
        }
        if ((n.equals("scheduler") || n.equals("sched") || n.endsWith("_scheduler") || n.endsWith("_sched"))
                && Role.SCHEDULER.methods.contains(method)) {
            return Role.SCHEDULER;
        }
        if ((n.equals("scaler") || n.endsWith("_scaler")) && Role.SCALER.methods.contains(method)) return Role.SCALER;
        return null;
    }

    /** A factory's role from its name: {@code create_optimizer}, {@code get_scheduler}, {@code build_grad_scaler}. */
    private static Role roleByFactoryName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.contains("optimizer") || n.contains("optimiser")) return Role.OPTIMIZER;
        if (n.contains("lr_scheduler") || n.contains("schedule_with_warmup")) return Role.SCHEDULER;
        if (n.contains("grad_scaler") || n.contains("gradscaler")) return Role.SCALER;
        return null;
    }

    /** The last identifier of a name or attribute chain ({@code self.optimizer} gives {@code optimizer}). */
    private static String lastName(Expr e) {
        if (e instanceof Expr.Name n) return n.id();
        if (e instanceof Expr.Attribute a) return a.attr();
        return null;
    }

    /** The receiver as written, for the message ({@code self.optimizer}); a generic word for anything else. */
    private static String text(Expr e) {
        if (e instanceof Expr.Name n) return n.id();
        if (e instanceof Expr.Attribute a) {
            String base = text(a.value());
            return base == null ? a.attr() : base + "." + a.attr();
        }
        return null;
    }
}
