package dev.graphmend.ir.cfg;

import dev.graphmend.ir.ast.Comprehension;
import dev.graphmend.ir.ast.ExceptHandler;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.MatchCase;
import dev.graphmend.ir.ast.Module;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Structural checks every graph must pass; returns the problems found (empty when sound).
 * Used by the fixtures and by the whole-standard-library test.
 */
final class CfgInvariants {
    private CfgInvariants() {}

    static List<String> check(ControlFlowGraph g) {
        List<String> bad = new ArrayList<>();
        List<Block> blocks = g.blocks();
        for (int i = 0; i < blocks.size(); i++) {
            if (blocks.get(i).id() != i) bad.add("block " + i + " has id " + blocks.get(i).id());
            if (blocks.get(i).graph() != g) bad.add(blocks.get(i) + " belongs to another graph");
        }
        if (g.entry().kind() != Block.Kind.ENTRY) bad.add("block 0 is not the entry");
        if (g.exit().kind() != Block.Kind.EXIT) bad.add("exit block has kind " + g.exit().kind());
        if (g.raiseExit().kind() != Block.Kind.RAISE_EXIT) bad.add("raise exit has kind " + g.raiseExit().kind());
        if (!g.entry().predecessors().isEmpty()) bad.add("the entry has predecessors");
        if (!g.exit().successors().isEmpty() || !g.raiseExit().successors().isEmpty()) bad.add("an exit has successors");
        for (Block b : blocks) {
            if (b.kind() != Block.Kind.BODY && b != g.entry() && b != g.exit() && b != g.raiseExit()) {
                bad.add(b + " has kind " + b.kind());
            }
            Set<String> seen = new HashSet<>();
            for (Edge e : b.successors()) {
                if (e.source() != b) bad.add(b + " lists a successor edge of " + e.source());
                if (!seen.add(e.kind() + ">" + e.target().id())) bad.add("duplicate edge " + e);
                if (count(e.target().predecessors(), e) != 1) bad.add(e + " is not once among its target's predecessors");
            }
            for (Edge e : b.predecessors()) {
                if (e.target() != b) bad.add(b + " lists a predecessor edge into " + e.target());
                if (count(e.source().successors(), e) != 1) bad.add(e + " is not once among its source's successors");
            }
            bad.addAll(branchShape(b));
        }
        // A RETURN edge leaves a return statement, or a cleanup copy entered by one (a block reached
        // from the target of a return's edge without passing an exception edge).
        Set<Block> onReturnPath = new HashSet<>();
        ArrayDeque<Block> todo = new ArrayDeque<>();
        for (Block b : blocks) {
            Step last = b.lastStep();
            if (last != null && last.node() instanceof Stmt.Return) {
                for (Edge e : b.successors()) if (e.kind() == EdgeKind.RETURN && onReturnPath.add(e.target())) todo.add(e.target());
            }
        }
        while (!todo.isEmpty()) {
            for (Edge e : todo.poll().successors()) {
                if (e.kind() != EdgeKind.EXCEPTION && onReturnPath.add(e.target())) todo.add(e.target());
            }
        }
        for (Block b : blocks) {
            Step last = b.lastStep();
            for (Edge e : b.successors()) {
                if (e.kind() == EdgeKind.RETURN && !(last != null && last.node() instanceof Stmt.Return)
                        && !onReturnPath.contains(b)) {
                    bad.add(e + " is a RETURN edge from neither a return nor a cleanup copy entered by one");
                }
            }
        }
        // Reachability as a plain search finds it.
        boolean[] reach = new boolean[blocks.size()];
        ArrayDeque<Block> work = new ArrayDeque<>();
        reach[0] = true;
        work.add(g.entry());
        while (!work.isEmpty()) {
            for (Edge e : work.poll().successors()) {
                if (!reach[e.target().id()]) {
                    reach[e.target().id()] = true;
                    work.add(e.target());
                }
            }
        }
        for (Block b : blocks) if (b.isReachable() != reach[b.id()]) bad.add(b + " reachability flag is wrong");
        // Every simple statement of the scope is a step somewhere; every statement has a start block.
        for (Stmt s : statementsOf(g.scope())) {
            if (g.blockOf(s) == null) bad.add("no block for " + s.pyType() + " at " + s.span());
        }
        IdentityHashMap<Node, Boolean> stepNodes = new IdentityHashMap<>();
        for (Block b : blocks) for (Step s : b.steps()) stepNodes.put(s.node(), true);
        for (Stmt s : statementsOf(g.scope())) {
            if (isCompound(s)) continue;
            if (!stepNodes.containsKey(s)) bad.add("no step for " + s.pyType() + " at " + s.span());
        }
        // The entry dominates every reachable block, and every block's dominators form a chain to it.
        Dominators dom = Dominators.of(g);
        for (Block b : blocks) {
            if (b.isReachable() != dom.covers(b)) bad.add(b + ": covered by dominators iff reachable");
            if (b.isReachable() && !dom.dominates(g.entry(), b)) bad.add("entry does not dominate " + b);
            if (b.isReachable() && b != g.entry()) {
                Block d = dom.immediateDominator(b);
                if (d == null || !d.isReachable()) bad.add(b + " has no reachable immediate dominator");
            }
        }
        return bad;
    }

    private static int count(List<Edge> edges, Edge e) {
        int n = 0;
        for (Edge x : edges) if (x.equals(e)) n++;
        return n;
    }

    /** A block's out-edges agree with its last step. */
    private static List<String> branchShape(Block b) {
        List<String> bad = new ArrayList<>();
        Step last = b.lastStep();
        boolean branches = last != null && (last.kind() == Step.Kind.TEST || last.kind() == Step.Kind.NEXT
                || last.kind() == Step.Kind.MATCH || last.kind() == Step.Kind.EXCEPT
                || last.kind() == Step.Kind.STATEMENT && last.node() instanceof Stmt.Assert);
        for (Edge e : b.successors()) {
            if ((e.kind() == EdgeKind.TRUE || e.kind() == EdgeKind.FALSE) && !branches) {
                bad.add(e + " leaves a block that does not end in a test");
            }
            if (branches && e.kind() != EdgeKind.TRUE && e.kind() != EdgeKind.FALSE && e.kind() != EdgeKind.EXCEPTION) {
                bad.add(e + " leaves a test block");
            }
            if (e.kind() == EdgeKind.LOOP_BACK && !(e.target().lastStep() != null
                    && (e.target().lastStep().kind() == Step.Kind.NEXT
                    || e.target().lastStep().kind() == Step.Kind.TEST && e.target().lastStep().statement() instanceof Stmt.While))) {
                bad.add(e + " goes back to something that is not a loop header");
            }
        }
        if (b.condition() != null && !branches) bad.add(b + " has a condition but does not branch");
        return bad;
    }

    static boolean isCompound(Stmt s) {
        return s instanceof Stmt.If || s instanceof Stmt.While || s instanceof Stmt.For || s instanceof Stmt.AsyncFor
                || s instanceof Stmt.With || s instanceof Stmt.AsyncWith || s instanceof Stmt.Try
                || s instanceof Stmt.TryStar || s instanceof Stmt.Match;
    }

    /** The statements that belong to a scope's own code (not to nested scopes). */
    static List<Stmt> statementsOf(Node scope) {
        List<Stmt> out = new ArrayList<>();
        List<Stmt> body;
        if (scope instanceof Module m) body = m.body();
        else if (scope instanceof Stmt.FunctionDef f) body = f.body();
        else if (scope instanceof Stmt.AsyncFunctionDef f) body = f.body();
        else if (scope instanceof Stmt.ClassDef c) body = c.body();
        else return out;
        for (Stmt s : body) collect(s, out);
        return out;
    }

    private static void collect(Stmt s, List<Stmt> out) {
        out.add(s);
        if (!isCompound(s)) return;
        s.forEachChild(c -> {
            if (c instanceof Stmt x) collect(x, out);
            else if (c instanceof ExceptHandler h) for (Stmt x : h.body()) collect(x, out);
            else if (c instanceof MatchCase m) for (Stmt x : m.body()) collect(x, out);
        });
    }

    /** Every scope node under {@code n}: defs, lambdas, classes (including inside expressions). */
    static void scopes(Node n, List<Node> into) {
        if (n instanceof Stmt.FunctionDef || n instanceof Stmt.AsyncFunctionDef || n instanceof Stmt.ClassDef
                || n instanceof Expr.Lambda) {
            into.add(n);
        }
        if (n instanceof Comprehension c) {
            c.forEachChild(x -> scopes(x, into));
            return;
        }
        n.forEachChild(x -> scopes(x, into));
    }
}
