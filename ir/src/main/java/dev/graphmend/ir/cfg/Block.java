package dev.graphmend.ir.cfg;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A basic block: steps that run one after the other, then edges to the blocks that may run next.
 * Immutable once its graph is built; blocks compare by identity. Ids are the index in
 * {@link ControlFlowGraph#blocks()}.
 */
public final class Block {

    public enum Kind {
        /** The function's (or module's, class body's) entry; holds the parameters, if any. */
        ENTRY,
        /** Where every normal completion and every {@code return} ends. */
        EXIT,
        /** Where exceptions leaving the function end (explicit raises, failed asserts, re-raises). */
        RAISE_EXIT,
        /** Any other block. */
        BODY
    }

    private final int id;
    private final Kind kind;
    private final List<Step> steps;
    private final List<Stmt> statements;
    private ControlFlowGraph graph;
    private List<Edge> successors;
    private List<Edge> predecessors;
    private boolean reachable;

    Block(int id, Kind kind, List<Step> steps) {
        this.id = id;
        this.kind = kind;
        this.steps = List.copyOf(steps);
        List<Stmt> simple = new ArrayList<>();
        for (Step s : this.steps) {
            if (s.kind() == Step.Kind.STATEMENT) simple.add((Stmt) s.node());
        }
        this.statements = Collections.unmodifiableList(simple);
    }

    /** Called once by the graph while it is being built. */
    void link(ControlFlowGraph graph, List<Edge> successors, List<Edge> predecessors, boolean reachable) {
        if (this.graph != null) throw new IllegalStateException("block already linked");
        this.graph = graph;
        this.successors = List.copyOf(successors);
        this.predecessors = List.copyOf(predecessors);
        this.reachable = reachable;
    }

    public int id() {
        return id;
    }

    public Kind kind() {
        return kind;
    }

    public ControlFlowGraph graph() {
        return graph;
    }

    /** Everything the block does, in order. */
    public List<Step> steps() {
        return steps;
    }

    /** The simple statements among the steps (nested def/class included), in order. */
    public List<Stmt> statements() {
        return statements;
    }

    /** The last step, or null for an empty block. */
    public Step lastStep() {
        return steps.isEmpty() ? null : steps.get(steps.size() - 1);
    }

    /**
     * The expression whose truth value chooses between the block's TRUE and FALSE edges: the test
     * of an {@code if}/{@code elif}/{@code while}, a {@code case} guard, or an {@code assert}'s test;
     * null when the block does not end with a truth test (loop heads, patterns and {@code except}
     * clauses also branch TRUE/FALSE, but on something other than a truth value).
     */
    public Expr condition() {
        Step last = lastStep();
        if (last == null) return null;
        if (last.kind() == Step.Kind.TEST) return (Expr) last.node();
        if (last.kind() == Step.Kind.STATEMENT && last.node() instanceof Stmt.Assert a) return a.test();
        return null;
    }

    /** Outgoing edges, in a fixed order (TRUE before FALSE; exception edges last). */
    public List<Edge> successors() {
        return successors;
    }

    /** Incoming edges. */
    public List<Edge> predecessors() {
        return predecessors;
    }

    /** Whether some path from the entry reaches this block; statements of other blocks are dead code. */
    public boolean isReachable() {
        return reachable;
    }

    /** {@code B<id>}. */
    @Override
    public String toString() {
        return "B" + id;
    }
}
