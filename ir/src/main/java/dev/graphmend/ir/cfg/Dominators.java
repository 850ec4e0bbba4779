package dev.graphmend.ir.cfg;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Dominators or post-dominators of a graph, by the iterative algorithm of Cooper, Harvey and
 * Kennedy ("A Simple, Fast Dominance Algorithm", 2001), with the dominator tree numbered so that
 * {@link #dominates} is a constant-time interval test.
 *
 * <p>Dominators ({@link #of}): {@code a} dominates {@code b} when every path from the entry to
 * {@code b} goes through {@code a}. Only blocks reachable from the entry are covered; for any other
 * block every query answers false and the immediate dominator is null.
 *
 * <p>Post-dominators ({@link #postDominatorsOf}): {@code a} post-dominates {@code b} when every path
 * from {@code b} to the end of the scope goes through {@code a}, where the end is a virtual node
 * that follows both the exit and the raise exit (so a block from which some path raises is not
 * post-dominated by the normal exit). Blocks that cannot reach either exit (an endless loop) are
 * not covered. The virtual end is never returned: the immediate post-dominator of a block whose
 * paths to the end meet only there (the exit, the raise exit, a block that branches to both) is
 * null.
 */
public final class Dominators {
    private final ControlFlowGraph graph;
    private final boolean post;
    private final int n;          // blocks, plus the virtual end for post-dominators
    private final int root;
    private final int[] idom;     // -1: not covered
    private final int[] pre;      // dominator-tree preorder interval
    private final int[] last;
    private final int[][] children;

    private Dominators(ControlFlowGraph g, boolean post) {
        this.graph = g;
        this.post = post;
        int blocks = g.blocks().size();
        this.n = post ? blocks + 1 : blocks;
        int[][] succ = new int[n][];
        int[][] pred = new int[n][];
        List<List<Integer>> s = new ArrayList<>();
        List<List<Integer>> p = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            s.add(new ArrayList<>());
            p.add(new ArrayList<>());
        }
        for (Edge e : g.edges()) {
            int from = e.source().id();
            int to = e.target().id();
            if (post) {
                s.get(to).add(from);
                p.get(from).add(to);
            } else {
                s.get(from).add(to);
                p.get(to).add(from);
            }
        }
        if (post) {
            int end = blocks;
            for (Block x : List.of(g.exit(), g.raiseExit())) {
                s.get(end).add(x.id());
                p.get(x.id()).add(end);
            }
            root = end;
        } else {
            root = g.entry().id();
        }
        for (int i = 0; i < n; i++) {
            succ[i] = s.get(i).stream().mapToInt(Integer::intValue).distinct().toArray();
            pred[i] = p.get(i).stream().mapToInt(Integer::intValue).distinct().toArray();
        }

        // Reverse postorder from the root (iterative DFS).
        int[] rpoNum = new int[n];
        Arrays.fill(rpoNum, -1);
        int[] order = new int[n];
        int count = postorder(succ, order);
        int[] rpo = new int[count];
        for (int i = 0; i < count; i++) {
            rpo[i] = order[count - 1 - i];
            rpoNum[rpo[i]] = i;
        }

        idom = new int[n];
        Arrays.fill(idom, -1);
        idom[root] = root;
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int i = 1; i < count; i++) {
                int b = rpo[i];
                int newIdom = -1;
                for (int q : pred[b]) {
                    if (rpoNum[q] < 0 || idom[q] < 0) continue;
                    newIdom = newIdom < 0 ? q : intersect(q, newIdom, rpoNum);
                }
                if (newIdom != idom[b]) {
                    idom[b] = newIdom;
                    changed = true;
                }
            }
        }

        // Dominator tree and its preorder intervals.
        List<List<Integer>> kids = new ArrayList<>();
        for (int i = 0; i < n; i++) kids.add(new ArrayList<>());
        for (int b : rpo) if (b != root) kids.get(idom[b]).add(b);
        children = new int[n][];
        for (int i = 0; i < n; i++) children[i] = kids.get(i).stream().mapToInt(Integer::intValue).toArray();
        pre = new int[n];
        last = new int[n];
        Arrays.fill(pre, -1);
        number();
    }

    private int postorder(int[][] succ, int[] order) {
        boolean[] seen = new boolean[n];
        int[] stack = new int[n];
        int[] next = new int[n];
        int sp = 0;
        int count = 0;
        stack[sp++] = root;
        seen[root] = true;
        while (sp > 0) {
            int b = stack[sp - 1];
            if (next[b] < succ[b].length) {
                int t = succ[b][next[b]++];
                if (!seen[t]) {
                    seen[t] = true;
                    stack[sp++] = t;
                }
            } else {
                sp--;
                order[count++] = b;
            }
        }
        return count;
    }

    private int intersect(int a, int b, int[] rpoNum) {
        while (a != b) {
            while (rpoNum[a] > rpoNum[b]) a = idom[a];
            while (rpoNum[b] > rpoNum[a]) b = idom[b];
        }
        return a;
    }

    private void number() {
        int[] stack = new int[n];
        int[] next = new int[n];
        int sp = 0;
        int counter = 0;
        stack[sp++] = root;
        pre[root] = counter++;
        while (sp > 0) {
            int b = stack[sp - 1];
            if (next[b] < children[b].length) {
                int c = children[b][next[b]++];
                pre[c] = counter++;
                stack[sp++] = c;
            } else {
                last[b] = counter - 1;
                sp--;
            }
        }
    }

    /** Dominators: every path from the entry to a block passes through its dominators. */
    public static Dominators of(ControlFlowGraph g) {
        return new Dominators(g, false);
    }

    /** Post-dominators: every path from a block to the end passes through its post-dominators. */
    public static Dominators postDominatorsOf(ControlFlowGraph g) {
        return new Dominators(g, true);
    }

    public ControlFlowGraph graph() {
        return graph;
    }

    /** Whether these are post-dominators. */
    public boolean isPost() {
        return post;
    }

    /** Whether the block is covered: reachable from the entry (reaching an exit, for post-dominators). */
    public boolean covers(Block b) {
        return idom[b.id()] >= 0;
    }

    /** Whether {@code a} (post-)dominates {@code b}; every covered block dominates itself. */
    public boolean dominates(Block a, Block b) {
        int x = a.id();
        int y = b.id();
        if (idom[x] < 0 || idom[y] < 0) return false;
        return pre[x] <= pre[y] && pre[y] <= last[x];
    }

    public boolean strictlyDominates(Block a, Block b) {
        return a != b && dominates(a, b);
    }

    /** The immediate (post-)dominator; null for the root, uncovered blocks, and the virtual end. */
    public Block immediateDominator(Block b) {
        int d = idom[b.id()];
        if (d < 0 || b.id() == root || d == root && post) return null;
        return graph.block(d);
    }

    /** The blocks this one immediately (post-)dominates, in reverse postorder. */
    public List<Block> children(Block b) {
        if (idom[b.id()] < 0) return List.of();
        List<Block> out = new ArrayList<>(children[b.id()].length);
        for (int c : children[b.id()]) out.add(graph.block(c));
        return Collections.unmodifiableList(out);
    }

    /** The blocks directly under the virtual end (post-dominators only: the tree's top level). */
    public List<Block> roots() {
        if (!post) return List.of(graph.entry());
        List<Block> out = new ArrayList<>();
        for (int c : children[root]) out.add(graph.block(c));
        return Collections.unmodifiableList(out);
    }

    /**
     * The (post-)dominance frontier: blocks where {@code b}'s dominance ends, i.e. blocks with a
     * predecessor (successor, for post-dominators) that {@code b} dominates while {@code b} does not
     * strictly dominate the block itself.
     */
    public Set<Block> frontier(Block b) {
        Set<Block> out = new LinkedHashSet<>();
        if (idom[b.id()] < 0) return out;
        for (Block y : graph.blocks()) {
            if (idom[y.id()] < 0) continue;
            for (Edge e : post ? y.successors() : y.predecessors()) {
                Block p = post ? e.target() : e.source();
                if (dominates(b, p) && !strictlyDominates(b, y)) {
                    out.add(y);
                    break;
                }
            }
        }
        return out;
    }
}
