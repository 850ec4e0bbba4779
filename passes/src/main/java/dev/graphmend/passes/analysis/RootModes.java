package dev.graphmend.passes.analysis;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.symbols.Binding;
import dev.graphmend.ir.symbols.Symbol;
import dev.graphmend.ir.symbols.Target;
import java.util.HashSet;
import java.util.Set;

/**
 * The modes a {@code torch.compile(target)} root is compiled in (docs/compile-regions.md,
 * "Modes"): a module is in training mode when built; {@code .eval()} and {@code .train(False)}
 * put it in eval mode, {@code .train()} back in training. Read from the target expression
 * ({@code torch.compile(Net(cfg).eval())}) or, for a name, from the last of its assignments and
 * {@code name.eval()} / {@code name.train(...)} calls above the compile call. What the module does
 * not show (a parameter, a model from another library's loader) is either mode.
 */
final class RootModes {
    private RootModes() {}

    /** nn.Module methods that return the module in the mode it had. */
    private static final Set<String> KEEPS_MODE = Set.of("to", "cuda", "cpu", "half", "float", "double", "bfloat16",
            "requires_grad_", "type", "share_memory", "apply", "to_empty", "forward");

    static int of(Project project, SourceModule m, Expr target, Expr.Call compileCall) {
        return modes(project, m, target, compileCall.span().line(), new HashSet<>());
    }

    private static int modes(Project project, SourceModule m, Expr e, int beforeLine, Set<Symbol> seen) {
        if (e instanceof Expr.Call c) {
            if (c.func() instanceof Expr.Attribute a) {
                int set = modeSetBy(a.attr(), c);
                if (set != 0) return set;
                if (KEEPS_MODE.contains(a.attr())) return modes(project, m, a.value(), beforeLine, seen);
            }
            ClassInfo built = project.resolveClass(m, c.func());
            return built != null && built.isModule() ? Modes.TRAIN : Modes.BOTH; // nn.Module.__init__ sets training=True
        }
        if (e instanceof Expr.Attribute a) return modes(project, m, a.value(), beforeLine, seen); // model.forward
        if (!(e instanceof Expr.Name n)) return Modes.BOTH;
        Target t = m.names().resolve(n);
        Symbol s = t instanceof Target.Local l ? l.symbol()
                : t instanceof Target.ModuleMember mm && mm.path().indexOf('.') < 0 ? mm.symbol() : null;
        if (s == null || !seen.add(s)) return Modes.BOTH;
        // the last assignment of the name or mode-setting call on it above the compile call
        int lastLine = -1, found = Modes.BOTH;
        for (Binding b : m.symbols().bindingsOf(s)) {
            int line = b.node().span() == null ? -1 : b.node().span().line();
            if (line >= beforeLine || line <= lastLine) continue;
            lastLine = line;
            found = b.kind() == Binding.Kind.ASSIGNMENT && b.construct() instanceof Stmt.Assign as && as.targets().size() == 1
                    && as.targets().get(0) == b.node() ? modes(project, m, as.value(), line, seen) : Modes.BOTH;
        }
        int[] last = {lastLine, found};
        Statements.everywhere(m.ir().module(), st -> {
            if (!(st instanceof Stmt.Expr x) || !(x.value() instanceof Expr.Call c) || !(c.func() instanceof Expr.Attribute a)
                    || !(a.value() instanceof Expr.Name on) || st.span() == null) {
                return;
            }
            int line = st.span().line();
            int set = modeSetBy(a.attr(), c);
            if (set == 0 || line >= beforeLine || line <= last[0] || !on.id().equals(n.id())) return;
            Target ot = m.names().resolve(on);
            Symbol os = ot instanceof Target.Local l ? l.symbol() : ot instanceof Target.ModuleMember mm ? mm.symbol() : null;
            if (os != s) return;
            last[0] = line;
            last[1] = set;
        });
        return last[1];
    }

    /** The mode {@code .eval()} or {@code .train(b)} sets; 0 for any other call; either mode for {@code .train(flag)}. */
    private static int modeSetBy(String method, Expr.Call c) {
        if (method.equals("eval") && c.args().isEmpty() && c.keywords().isEmpty()) return Modes.EVAL;
        if (!method.equals("train")) return 0;
        Expr flag = !c.args().isEmpty() ? c.args().get(0) : c.keywords().isEmpty() ? null : c.keywords().get(0).value();
        if (flag == null) return Modes.TRAIN;
        if (flag instanceof Expr.Constant k && k.value() instanceof Boolean b) return b ? Modes.TRAIN : Modes.EVAL;
        return Modes.BOTH;
    }
}
