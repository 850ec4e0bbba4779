package dev.graphmend.ir.cfg;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Module;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.source.SourceText;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * The control-flow graph of one scope's code: a function's or lambda's body, a class body, or a
 * module's top level. Nested functions, lambdas and classes are single statements (or parts of an
 * expression) here and have graphs of their own. Immutable.
 *
 * <p>Block 0 is the entry; the last two blocks are the exit and the raise exit. The other blocks are
 * numbered in the order they were made, which follows the source (the copies of a {@code finally}
 * body come after the handlers and {@code else} of their statement).
 */
public final class ControlFlowGraph {
    private final Node scope;
    private final List<Block> blocks;
    private final IdentityHashMap<Stmt, List<Block>> starts;
    private final boolean sharedFinally;

    ControlFlowGraph(Node scope, List<Block> blocks, List<List<Edge>> succ, List<List<Edge>> pred,
                     IdentityHashMap<Stmt, List<Block>> starts, boolean sharedFinally) {
        this.scope = scope;
        this.sharedFinally = sharedFinally;
        this.blocks = Collections.unmodifiableList(new ArrayList<>(blocks));
        this.starts = starts;
        boolean[] seen = new boolean[blocks.size()];
        ArrayDeque<Integer> work = new ArrayDeque<>();
        seen[0] = true;
        work.add(0);
        while (!work.isEmpty()) {
            int b = work.poll();
            for (Edge e : succ.get(b)) {
                int t = e.target().id();
                if (!seen[t]) {
                    seen[t] = true;
                    work.add(t);
                }
            }
        }
        for (int i = 0; i < blocks.size(); i++) blocks.get(i).link(this, succ.get(i), pred.get(i), seen[i]);
    }

    /** The graph of a function's body; the parameters are bound in the entry block. */
    public static ControlFlowGraph of(Stmt.FunctionDef f) {
        return CfgBuilder.build(f);
    }

    /** The graph of an {@code async def}'s body. */
    public static ControlFlowGraph of(Stmt.AsyncFunctionDef f) {
        return CfgBuilder.build(f);
    }

    /** The graph of a lambda: parameters, then its body expression, then the exit. */
    public static ControlFlowGraph of(Expr.Lambda l) {
        return CfgBuilder.build(l);
    }

    /** The graph of a class body (run once, when the {@code class} statement runs). */
    public static ControlFlowGraph ofClass(Stmt.ClassDef c) {
        return CfgBuilder.build(c);
    }

    /** The graph of a module's top-level code. */
    public static ControlFlowGraph ofModule(Module m) {
        return CfgBuilder.build(m);
    }

    /**
     * The graph of any scope node: a {@code Module}, {@code FunctionDef}, {@code AsyncFunctionDef},
     * {@code Lambda} or {@code ClassDef}.
     */
    public static ControlFlowGraph ofScope(Node scope) {
        return CfgBuilder.build(scope);
    }

    /**
     * Whether the finally bodies are shared instead of copied per route. Only for code whose copies
     * would exceed {@value CfgBuilder#MAX_BLOCKS} blocks (try/finally nested about five deep inside
     * finally bodies): one copy is entered by every route (normal, return, break, continue,
     * exception) and leaves by every route that entered it. Still sound (every real path is a path
     * of the graph), less precise: paths can mix there, e.g. enter by a return and fall through.
     */
    public boolean sharedFinally() {
        return sharedFinally;
    }

    /** The node whose code this graph describes. */
    public Node scope() {
        return scope;
    }

    /** All blocks, by id (entry first, then body blocks, then exit and raise exit). */
    public List<Block> blocks() {
        return blocks;
    }

    public Block block(int id) {
        return blocks.get(id);
    }

    public Block entry() {
        return blocks.get(0);
    }

    /** Where normal completion and {@code return} end. */
    public Block exit() {
        return blocks.get(blocks.size() - 2);
    }

    /** Where exceptions that leave the scope end (only explicit raises, failed asserts, re-raises are drawn). */
    public Block raiseExit() {
        return blocks.get(blocks.size() - 1);
    }

    /** Every edge, grouped by source block. */
    public List<Edge> edges() {
        List<Edge> all = new ArrayList<>();
        for (Block b : blocks) all.addAll(b.successors());
        return all;
    }

    /**
     * The block where a statement of this scope starts: the block of its step for a simple
     * statement, of its first header step for a compound one ({@code For}: where the iterable is
     * evaluated; {@code While}: its header), the first block of its body for a {@code try}. When the
     * statement is inside a {@code finally} body, which has one copy per way of leaving the
     * {@code try}, this is the first copy's (see {@link #blocksOf}). Null for statements of other
     * scopes. Lookup is by identity: pass the very node of the tree the graph was built from.
     */
    public Block blockOf(Stmt s) {
        List<Block> l = starts.get(s);
        return l == null ? null : l.get(0);
    }

    /** Every block where a statement starts: one per copy of the {@code finally} bodies it is in. */
    public List<Block> blocksOf(Stmt s) {
        List<Block> l = starts.get(s);
        return l == null ? List.of() : l;
    }

    /** A compact form: one line per block, steps as {@code Type@line:col}. */
    @Override
    public String toString() {
        return CfgPrinter.text(this, null);
    }

    /** One line per block, each step shown as its source text (first line, shortened). */
    public String dump(SourceText source) {
        return CfgPrinter.text(this, source);
    }

    /** Graphviz dot; steps shown as source text when {@code source} is given. */
    public String toDot(SourceText source) {
        return CfgPrinter.dot(this, source);
    }
}
