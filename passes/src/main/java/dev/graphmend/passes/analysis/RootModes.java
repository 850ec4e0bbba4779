package dev.graphmend.passes.analysis;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.symbols.Binding;
import dev.graphmend.ir.symbols.Symbol;
import dev.graphmend.ir.symbols.Target;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The contexts a {@code torch.compile(target)} root is compiled in (docs/compile-regions.md,
 * "Modes"): its mode and its dtype. A module is in training mode and float32 when built;
 * {@code .eval()} and {@code .train(False)} put it in eval mode, {@code .train()} back in training;
 * {@code .half()}, {@code .bfloat16()} and {@code .to(torch.float16)} (or bfloat16) make it half
 * precision, {@code .float()} float32 again. Read from the target expression
 * ({@code torch.compile(Net(cfg).eval())}) or, for a name, from the last of its assignments and
 * {@code name.eval()} / {@code name.train(...)} / {@code name.half()} calls above the compile call.
 * What the module does not show (a parameter, a model from another library's loader,
 * {@code .to(dtype)} of a variable) is either.
 */
final class RootModes {
    private RootModes() {}

    /** A root's mode ({@link Modes#EVAL}, {@link Modes#TRAIN} or both) and dtype ({@link Modes#FP32}, {@link Modes#HALF} or both). */
    private record Context(int mode, int dtype) {
        static final Context UNKNOWN = new Context(Modes.BOTH, Modes.BOTH);
        static final Context BUILT = new Context(Modes.TRAIN, Modes.FP32); // nn.Module.__init__: training=True, float32 parameters

        Context with(Context set) {
            return new Context(set.mode != 0 ? set.mode : mode, set.dtype != 0 ? set.dtype : dtype);
        }

        int mask() { return mode & dtype; }
    }

    static int of(Project project, SourceModule m, Expr target, Expr.Call compileCall) {
        return context(project, m, target, compileCall.span().line(), new HashSet<>()).mask();
    }

    private static Context context(Project project, SourceModule m, Expr e, int beforeLine, Set<Symbol> seen) {
        if (e instanceof Expr.Call c) {
            if (c.func() instanceof Expr.Attribute a) {
                Context set = setBy(a.attr(), c);
                // nn.Module's methods that return the module keep what they do not set
                if (set != null || CompileRegions.SELF_RETURNING.contains(a.attr())) {
                    Context inner = context(project, m, a.value(), beforeLine, seen);
                    return set == null ? inner : inner.with(set);
                }
            }
            ClassInfo built = project.resolveClass(m, c.func());
            return built != null && built.isModule() ? Context.BUILT : Context.UNKNOWN;
        }
        if (e instanceof Expr.Attribute a) return context(project, m, a.value(), beforeLine, seen); // model.forward
        if (!(e instanceof Expr.Name n)) return Context.UNKNOWN;
        Target t = m.names().resolve(n);
        Symbol s = t instanceof Target.Local l ? l.symbol()
                : t instanceof Target.ModuleMember mm && mm.path().indexOf('.') < 0 ? mm.symbol() : null;
        if (s == null || !seen.add(s)) return Context.UNKNOWN;
        // the last assignment of the name above the compile call, then the calls on it that set a
        // mode or a dtype (in place: nn.Module's eval, train, half, … return the module itself)
        int lastLine = -1;
        Context found = Context.UNKNOWN;
        for (Binding b : m.symbols().bindingsOf(s)) {
            int line = b.node().span() == null ? -1 : b.node().span().line();
            if (line >= beforeLine || line <= lastLine) continue;
            lastLine = line;
            found = b.kind() == Binding.Kind.ASSIGNMENT && b.construct() instanceof Stmt.Assign as && as.targets().size() == 1
                    && as.targets().get(0) == b.node() ? context(project, m, as.value(), line, seen) : Context.UNKNOWN;
        }
        int after = lastLine;
        java.util.TreeMap<Integer, Context> calls = new java.util.TreeMap<>();
        Statements.everywhere(m.ir().module(), st -> {
            if (!(st instanceof Stmt.Expr x) || !(x.value() instanceof Expr.Call c) || !(c.func() instanceof Expr.Attribute a)
                    || !(a.value() instanceof Expr.Name on) || st.span() == null) {
                return;
            }
            int line = st.span().line();
            Context set = setBy(a.attr(), c);
            if (set == null || line >= beforeLine || line <= after || !on.id().equals(n.id())) return;
            Target ot = m.names().resolve(on);
            Symbol os = ot instanceof Target.Local l ? l.symbol() : ot instanceof Target.ModuleMember mm ? mm.symbol() : null;
            if (os == s) calls.put(line, set);
        });
        for (Context set : calls.values()) found = found.with(set);
        return found;
    }

    /**
     * What a method call sets: the mode {@code .eval()} or {@code .train(b)} sets (either for
     * {@code .train(flag)}), the dtype {@code .half()}, {@code .bfloat16()}, {@code .float()} or
     * {@code .to(torch.float16)} sets (either for {@code .double()}, {@code .to(dtype)} of a
     * variable); 0 in the part it keeps; null for a call that sets neither.
     */
    private static Context setBy(String method, Expr.Call c) {
        boolean noArgs = c.args().isEmpty() && c.keywords().isEmpty();
        switch (method) {
            case "eval": return noArgs ? new Context(Modes.EVAL, 0) : null;
            case "train": {
                Expr flag = !c.args().isEmpty() ? c.args().get(0) : c.keywords().isEmpty() ? null : c.keywords().get(0).value();
                if (flag == null) return new Context(Modes.TRAIN, 0);
                if (flag instanceof Expr.Constant k && k.value() instanceof Boolean b) return new Context(b ? Modes.TRAIN : Modes.EVAL, 0);
                return new Context(Modes.BOTH, 0);
            }
            case "half": case "bfloat16": return noArgs ? new Context(0, Modes.HALF) : null;
            case "float": return noArgs ? new Context(0, Modes.FP32) : null;
            case "double": return new Context(0, Modes.BOTH);
            case "type": return new Context(0, Modes.BOTH);
            case "to": return toSets(c);
            default: return null;
        }
    }

    /** {@code .to(...)}: a device keeps the dtype, a spelled dtype sets it, anything else may set any. */
    private static Context toSets(Expr.Call c) {
        List<Expr> values = new java.util.ArrayList<>(c.args());
        for (var k : c.keywords()) {
            if ("dtype".equals(k.arg()) || k.arg() == null) values.add(k.value());
        }
        int dtype = 0;
        for (Expr v : values) {
            int d = Modes.dtypeNamed(v);
            if (d != 0) dtype = d;
            else if (!(v instanceof Expr.Constant) && !namesADevice(v)) dtype = Modes.BOTH; // a dtype or a tensor's
        }
        return dtype == 0 ? null : new Context(0, dtype);
    }

    /** {@code device}, {@code args.device}, {@code self.device}: a name spelled as a device. */
    private static boolean namesADevice(Expr v) {
        String last = v instanceof Expr.Name n ? n.id() : v instanceof Expr.Attribute a ? a.attr() : "";
        return last.toLowerCase(java.util.Locale.ROOT).contains("device");
    }
}
