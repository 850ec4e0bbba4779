package dev.graphmend.passes.analysis;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.cfg.Definition;
import dev.graphmend.ir.symbols.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Which project functions a call runs: the one place calls are resolved, for region discovery
 * ({@link CompileRegions}), the rules and the values of calls ({@link ValueInterpreter}). It reads
 * the receivers' values from the function's context, so the answer depends on what the
 * interpreter knows of them.
 */
final class CallResolver {
    private final FunctionContext ctx;
    private final Project project;
    private final FunctionRef fn;

    CallResolver(FunctionContext ctx) {
        this.ctx = ctx;
        this.project = ctx.project();
        this.fn = ctx.function();
    }

    /** {@code super().m}: resolved against the class this method belongs to. */
    boolean isSuperCall(Expr f) {
        return f instanceof Expr.Attribute a && a.value() instanceof Expr.Call sc && sc.func() instanceof Expr.Name sn
                && sn.id().equals("super") && fn.owner() != null;
    }

    /**
     * The project function a call runs, when the analysis can tell: the one place calls are
     * resolved, for region discovery ({@link CompileRegions}), the rules and the values of calls.
     * Methods of {@code self}, of submodules and of objects whose class is known; calling a module
     * (its {@code forward}); {@code super().m()}; a def nested in this function or in one
     * enclosing it (a closure calling a sibling helper); project functions by name or import.
     */
    Callee callee(Expr.Call c) {
        Expr f = c.func();
        if (f instanceof Expr.Attribute a) {
            if (isSuperCall(f)) {
                for (ClassInfo b : fn.owner().bases()) ctx.lookedUp(b, a.attr());
                FunctionRef m = fn.owner().superMethod(a.attr());
                if (m == null && a.attr().equals("__call__") && fn.owner().isModule()) {
                    // nn.Module.__call__ under an overriding __call__: it runs the forward
                    ctx.lookedUp(fn.owner(), "forward");
                    FunctionRef fwd = fn.owner().method("forward");
                    return fwd == null ? null : new Callee(fwd, true);
                }
                return m == null ? null : new Callee(m, true);
            }
            Val recv = ctx.value(a.value());
            if ((recv.kind() == ValueKind.SELF || recv.kind() == ValueKind.MODULE || recv.kind() == ValueKind.OBJECT)
                    && recv.cls() != null) {
                ctx.lookedUp(recv.cls(), a.attr()); // its methods decide the target, a pasted one too
                FunctionRef m = recv.cls().method(a.attr());
                if (m != null) return new Callee(m, true);
                if (recv.kind() == ValueKind.SELF) {
                    Val attr = ctx.attributeOf(recv.cls(), a.attr());
                    if (attr.kind() == ValueKind.MODULE && attr.cls() != null) return forwardOf(attr.cls());
                    if (attr.kind() == ValueKind.OBJECT && attr.cls() != null) return callOf(attr.cls());
                }
                return null;
            }
        }
        boolean local = f instanceof Expr.Name && fn.module().names().resolve(f) instanceof Target.Local;
        if (!(f instanceof Expr.Name) || local) {
            Val v = f instanceof Expr.Name || f instanceof Expr.Subscript || f instanceof Expr.Attribute ? ctx.value(f) : Val.UNKNOWN;
            if (v.kind() == ValueKind.MODULE && v.cls() != null) return forwardOf(v.cls());
            if (v.kind() == ValueKind.OBJECT && v.cls() != null) return callOf(v.cls());
        }
        if (local) {
            String name = ((Expr.Name) f).id();
            Stmt.FunctionDef nested = nestedDef(fn.def(), name);
            Target.Local target = (Target.Local) fn.module().names().resolve(f);
            // a closure's call of a sibling def of its enclosing function (a decorator's wrapper calling a helper)
            for (var s = target.symbol() == null ? null : target.symbol().scope(); nested == null && s != null; s = s.parent()) {
                if (s.node() instanceof Stmt.FunctionDef outer && outer != fn.def()) nested = nestedDef(outer, name);
            }
            if (nested != null) return new Callee(new FunctionRef(fn.module(), nested, null), false);
        }
        FunctionRef target = project.resolveFunction(fn.module(), f);
        if (f instanceof Expr.Attribute a && (target == null || target.owner() != null)) {
            ClassInfo k = project.resolveClass(fn.module(), a.value()); // `Cls.method(...)`: a method it may gain or lose
            if (k != null) ctx.lookedUp(k, a.attr());
        }
        return target == null ? null : new Callee(target, false);
    }

    /**
     * Every project function a call may run: {@link #callee}'s one target, or, for a submodule
     * the class assigns from several classes ({@code self.encoder = A(config) if … else B(config)}),
     * the forward of each. For the call graph; a call's value needs the single target.
     */
    List<Callee> callees(Expr.Call c) {
        Callee one = callee(c);
        if (one != null) {
            // a module class that overrides __call__ (PyG's Aggregation, transformers' checkpointing
            // layers) runs it before the forward: both are reached
            ClassInfo owner = one.function().owner();
            if (owner != null && owner.isModule() && one.function().def().name().equals("forward")) {
                ctx.lookedUp(owner, "__call__");
                FunctionRef call = owner.method("__call__");
                if (call != null) return List.of(one, new Callee(call, true));
            }
            return List.of(one);
        }
        if (c.func() instanceof Expr.Attribute a) {
            Val recv = ctx.value(a.value());
            if (recv.kind() == ValueKind.SELF && recv.cls() != null && recv.cls().method(a.attr()) == null) {
                ctx.lookedUp(recv.cls(), a.attr());
                ctx.consultClass(recv.cls()); // and the attribute's classes
                for (Project.SubclassOf bound : project.bindingSubclasses(recv.cls(), a.attr())) ctx.consultClass(bound.child());
                List<Callee> out = new ArrayList<>();
                for (ClassInfo k : project.attributeModuleClasses(recv.cls(), a.attr())) {
                    Callee fwd = forwardOf(k);
                    if (fwd != null) out.add(fwd);
                }
                return out;
            }
        }
        if (fn.owner() == null) return List.of();
        if (c.func() instanceof Expr.Name n && isLoopVariable(n)) return containerForwards(null);
        // `self.layer[-1](x)` on a container filled from several classes (Switch Transformers' blocks)
        if (c.func() instanceof Expr.Subscript sub && sub.value() instanceof Expr.Attribute a
                && ctx.value(a.value()).kind() == ValueKind.SELF) {
            return containerForwards(a.attr());
        }
        return List.of();
    }

    private boolean isLoopVariable(Expr.Name n) {
        var defs = project.defUse(fn.module(), fn.def()).definitionsOf(n);
        if (defs.isEmpty()) return false;
        for (Definition d : defs) if (d.kind() != Definition.Kind.FOR_TARGET) return false;
        return true;
    }

    /**
     * A module taken from a loop ({@code for flow in flows: flow(x)}) whose class is not one: the
     * forwards of every class the containers this method reads hold ({@code self.flows}, built from
     * several classes or reordered first, VITS' {@code list(reversed(self.flows))}); with
     * {@code only}, the classes of that one container.
     */
    private List<Callee> containerForwards(String only) {
        List<Callee> out = new ArrayList<>();
        Set<String> read = new java.util.LinkedHashSet<>();
        if (only != null) read.add(only);
        String self = fn.def().args().args().isEmpty() ? null : fn.def().args().args().get(0).arg();
        for (Stmt s : only != null ? List.<Stmt>of() : Statements.of(fn.def().body())) {
            Statements.expressions(s, e -> {
                if (e instanceof Expr.Attribute a && a.value() instanceof Expr.Name r && r.id().equals(self)) read.add(a.attr());
            });
        }
        for (String attr : read) {
            for (ClassInfo k : project.containerElementClasses(fn.owner(), attr)) {
                Callee fwd = forwardOf(k);
                if (fwd != null && !out.contains(fwd)) out.add(fwd);
            }
        }
        return out;
    }

    /** The {@code __call__} a call of a plain (non-Module) object of class {@code c} runs (a matcher, a loss helper). */
    private Callee callOf(ClassInfo c) {
        ctx.lookedUp(c, "__call__");
        FunctionRef call = c.method("__call__");
        return call == null ? null : new Callee(call, true);
    }

    /** The forward a call of a module of class {@code c} runs; the class is consulted (its methods decide). */
    private Callee forwardOf(ClassInfo c) {
        ctx.lookedUp(c, "forward");
        FunctionRef fwd = c.method("forward");
        return fwd == null ? null : new Callee(fwd, true);
    }

    /** The last def of {@code name} directly in a function's body (nested in its blocks too). */
    static Stmt.FunctionDef nestedDef(Stmt.FunctionDef outer, String name) {
        Stmt.FunctionDef found = null;
        for (Stmt s : Statements.of(outer.body())) {
            if (s instanceof Stmt.FunctionDef f && f.name().equals(name)) found = f;
        }
        return found;
    }
}
