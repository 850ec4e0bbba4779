package dev.graphmend.ir.cfg;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Module;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * The graphs of every scope of a module: the module's top level, then every function,
 * {@code async def}, lambda and class body, in source order (outer before inner), wherever they
 * are (nested, in decorators, defaults or comprehensions). Immutable.
 */
public final class ControlFlowGraphs {
    private final ControlFlowGraph module;
    private final List<ControlFlowGraph> all;
    private final IdentityHashMap<Node, ControlFlowGraph> byScope;

    private ControlFlowGraphs(Module m) {
        List<Node> scopes = new ArrayList<>();
        scopes.add(m);
        m.forEachChild(c -> collect(c, scopes));
        List<ControlFlowGraph> graphs = new ArrayList<>(scopes.size());
        byScope = new IdentityHashMap<>();
        for (Node s : scopes) {
            ControlFlowGraph g = ControlFlowGraph.ofScope(s);
            graphs.add(g);
            byScope.put(s, g);
        }
        this.module = graphs.get(0);
        this.all = Collections.unmodifiableList(graphs);
    }

    private static void collect(Node n, List<Node> into) {
        if (n instanceof Stmt.FunctionDef || n instanceof Stmt.AsyncFunctionDef || n instanceof Stmt.ClassDef
                || n instanceof Expr.Lambda) {
            into.add(n);
        }
        n.forEachChild(c -> collect(c, into));
    }

    public static ControlFlowGraphs of(Module m) {
        return new ControlFlowGraphs(m);
    }

    public ControlFlowGraph module() {
        return module;
    }

    /** Every graph, the module's first. */
    public List<ControlFlowGraph> all() {
        return all;
    }

    /** The graph of a scope node ({@code Module}, def, lambda, class), or null. Lookup by identity. */
    public ControlFlowGraph of(Node scope) {
        return byScope.get(scope);
    }
}
