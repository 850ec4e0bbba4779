package dev.graphmend.passes.fix;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.analysis.SourceModule;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Whether TorchScript may compile the function a fix rewrites (docs/rules/GM102.md, "TorchScript"):
 * a rewrite there must stay scriptable, or {@code torch.jit.script(model)} that works today fails
 * after {@code graphmend fix}. The in-graph operators are not scriptable (the warning and logging
 * operators take {@code __name__}/{@code __file__}, "python value of type 'str' cannot be used as a
 * value"; {@code torch._higher_order_ops.print} is an object TorchScript cannot type), while
 * {@code torch.where}, {@code torch._assert_async} and an {@code is_compiling()} guard are (observed
 * on torch 2.15).
 *
 * <p>TorchScript compiles a function decorated {@code @torch.jit.script}, and the methods of a
 * module a program scripts, which the analysis cannot see: a project that uses TorchScript anywhere
 * ({@code torch.jit.script}, {@code is_scripting}, {@code unused}, {@code ignore}, {@code export},
 * {@code Final}, {@code interface}, {@code annotate}) is taken to script its modules. TorchScript
 * leaves a function decorated {@code @torch.jit.ignore} or {@code @torch.jit.unused} to Python.
 */
final class TorchScriptCode {
    private TorchScriptCode() {}

    private static final Set<String> API = Set.of("script", "is_scripting", "unused", "ignore", "export", "Final",
            "interface", "annotate", "script_method", "ScriptModule");

    /**
     * Spelled, not resolved: {@code <...>.jit.<API>} anywhere in the module, or an import from
     * {@code torch.jit} of one of them (resolving every name of every module of a project would
     * cost more than the rare false positive of another module named {@code jit}).
     */
    private static final SourceModule.Derived<Boolean> USES_TORCHSCRIPT = new SourceModule.Derived<>(
            "uses a TorchScript API", m -> {
                if (!m.spellsAny(Set.of("jit"))) return false;
                for (var imp : m.names().imports().all()) {
                    String qn = imp.qualifiedName();
                    if (qn != null && qn.startsWith("torch.jit.") && API.contains(qn.substring(qn.lastIndexOf('.') + 1))) return true;
                }
                List<Node> todo = new ArrayList<>();
                todo.add(m.ir().module());
                while (!todo.isEmpty()) {
                    Node n = todo.remove(todo.size() - 1);
                    if (n instanceof Expr.Attribute a && API.contains(a.attr())
                            && (a.value() instanceof Expr.Attribute b && b.attr().equals("jit")
                                || a.value() instanceof Expr.Name j && j.id().equals("jit"))) {
                        return true;
                    }
                    n.forEachChild(todo::add);
                }
                return false;
            });

    /** Whether TorchScript may compile the function of {@code site}; see the class comment. */
    static boolean mayCompile(FixSite site) {
        Stmt.FunctionDef def = site.function().function().def();
        SourceModule m = site.module();
        for (Expr d : def.decoratorList()) {
            String qn = m.names().qualifiedName(d instanceof Expr.Call c ? c.func() : d);
            if ("torch.jit.ignore".equals(qn) || "torch.jit.unused".equals(qn)) return false;
            if ("torch.jit.script".equals(qn)) return true;
        }
        for (SourceModule other : site.function().project().modules()) {
            if (other.derived(USES_TORCHSCRIPT)) return true;
        }
        return false;
    }

    /** The reason a fix that is not scriptable gives where TorchScript may compile the function. */
    static String reason(String what) {
        return what + " is not scriptable, and TorchScript may compile this function (the project uses torch.jit): "
                + "torch.jit.script of the module would fail after the fix";
    }
}
