package dev.graphmend.ir.cfg;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Node;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reaching definitions of a graph's names: which bindings may still be the current value of a
 * name at each point. The classic forward may-analysis, solved to its fixed point over the
 * reachable blocks (unreachable blocks receive nothing and pass nothing on).
 *
 * <p>Names only: a definition of {@code x} reaches a use of {@code x} in this graph. Whether a
 * name is local, global, nonlocal or free, and what reaches a function from the enclosing scope,
 * is resolved by the symbol tables; a use with no reaching definition here is a global, builtin,
 * free or unbound name.
 *
 * <p>What flows along each kind of edge:
 * <ul>
 *   <li>Normal edges: the state after the block's last step. {@code del x} and the implicit deletion
 *       of an {@code except ... as x} name kill every definition of {@code x}.</li>
 *   <li>EXCEPTION edges: the union of the states at every point where the block may raise: before
 *       each step that may raise, and after each binding inside such a step (a statement may fail
 *       half-way, after some of its targets were bound), and at the block's end (an explicit
 *       {@code raise}, the re-raise that ends an exceptional copy of a finally body).</li>
 *   <li>The FALSE edge of a {@code case} pattern: the state before the pattern plus its captures as
 *       weak definitions (a failed match may have bound some names: Python leaves it unspecified).</li>
 * </ul>
 * Inside a step, conditionally evaluated parts (short-circuit operands, conditional expressions,
 * comprehension bodies, or-pattern alternatives) are followed exactly: a walrus in the second
 * operand of {@code and} is certain for the third operand and merely possible after the
 * expression. The result is the meet-over-all-paths solution (the analysis is distributive).
 */
public final class ReachingDefinitions {
    private final ControlFlowGraph graph;
    private final List<Definition> defs = new ArrayList<>();
    private final IdentityHashMap<Node, Map<String, Definition>> byNode = new IdentityHashMap<>();
    private final Map<String, BitSet> byName = new HashMap<>();
    private final List<List<List<Accesses.Event>>> events = new ArrayList<>();
    private final BitSet[] in;
    private final Flow[] flows;

    /** What leaves a block: along normal edges, EXCEPTION edges, and a failed pattern's FALSE edge. */
    private record Flow(BitSet normal, BitSet exceptional, BitSet matchFailed) {
        BitSet along(EdgeKind kind) {
            if (kind == EdgeKind.EXCEPTION) return exceptional;
            if (kind == EdgeKind.FALSE && matchFailed != null) return matchFailed;
            return normal;
        }
    }

    private ReachingDefinitions(ControlFlowGraph g) {
        this.graph = g;
        int n = g.blocks().size();
        for (Block b : g.blocks()) {
            List<List<Accesses.Event>> perStep = new ArrayList<>(b.steps().size());
            for (Step s : b.steps()) {
                List<Accesses.Event> ev = Accesses.of(s);
                perStep.add(ev);
                declare(ev);
            }
            events.add(perStep);
        }
        in = new BitSet[n];
        flows = new Flow[n];
        for (int i = 0; i < n; i++) in[i] = new BitSet();
        // Round-robin in reverse postorder until nothing changes (unreachable blocks take no part).
        List<Block> order = reversePostorder(g);
        for (Block b : order) flows[b.id()] = flow(b, in[b.id()], null);
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Block b : order) {
                BitSet x = new BitSet();
                for (Edge e : b.predecessors()) {
                    Flow f = flows[e.source().id()];
                    if (f != null) x.or(f.along(e.kind()));
                }
                if (!x.equals(in[b.id()])) {
                    in[b.id()] = x;
                    flows[b.id()] = flow(b, x, null);
                    changed = true;
                }
            }
        }
    }

    private void declare(List<Accesses.Event> ev) {
        for (Accesses.Event e : ev) {
            if (e instanceof Accesses.Def d) {
                define(d);
            } else if (e instanceof Accesses.Choice c) {
                for (List<Accesses.Event> alt : c.alternatives()) declare(alt);
            } else if (e instanceof Accesses.Repeat r) {
                declare(r.body());
            }
        }
    }

    private void define(Accesses.Def d) {
        Map<String, Definition> m = byNode.computeIfAbsent(d.node(), k -> new HashMap<>(2));
        if (m.containsKey(d.name())) return;
        Definition def = new Definition(defs.size(), d.node(), d.name(), d.kind());
        m.put(d.name(), def);
        defs.add(def);
        byName.computeIfAbsent(d.name(), k -> new BitSet()).set(def.index());
    }

    private BitSet named(String name) {
        BitSet b = byName.get(name);
        return b == null ? new BitSet() : b;
    }

    private Definition lookup(Accesses.Def d) {
        return byNode.get(d.node()).get(d.name());
    }

    /**
     * Runs a block from {@code entry}. EXCEPTION edges carry the union of the states at every point
     * where the block may raise: before each step that may raise, after each binding inside such a
     * step, and at the end (an explicit raise or re-raise). A block ending in a pattern test sends
     * along its FALSE edge the state before the pattern plus any of its captures.
     */
    private Flow flow(Block b, BitSet entry, EventVisitor visitor) {
        BitSet state = (BitSet) entry.clone();
        BitSet exc = null;
        BitSet matchFailed = null;
        List<List<Accesses.Event>> perStep = events.get(b.id());
        for (int i = 0; i < perStep.size(); i++) {
            Step s = b.steps().get(i);
            List<Accesses.Event> ev = perStep.get(i);
            if (CfgBuilder.mayRaise(s)) {
                if (exc == null) exc = new BitSet();
                exc.or(state);
                definedIn(ev, exc);
            }
            if (i == perStep.size() - 1 && s.kind() == Step.Kind.MATCH) {
                matchFailed = (BitSet) state.clone();
                definedIn(ev, matchFailed);
            }
            state = run(ev, state, i, visitor);
        }
        if (exc == null) {
            exc = state;
        } else {
            exc.or(state);
        }
        return new Flow(state, exc, matchFailed);
    }

    /** Adds every definition the events may make. */
    private void definedIn(List<Accesses.Event> ev, BitSet into) {
        for (Accesses.Event e : ev) {
            if (e instanceof Accesses.Def d) {
                into.set(lookup(d).index());
            } else if (e instanceof Accesses.Choice c) {
                for (List<Accesses.Event> alt : c.alternatives()) definedIn(alt, into);
            } else if (e instanceof Accesses.Repeat r) {
                definedIn(r.body(), into);
            }
        }
    }

    /** The state after the events; the visitor sees every use with the state it reads. */
    private BitSet run(List<Accesses.Event> ev, BitSet state, int step, EventVisitor visitor) {
        for (Accesses.Event e : ev) {
            if (e instanceof Accesses.Use u) {
                if (visitor != null) visitor.use(step, u.name(), state);
            } else if (e instanceof Accesses.Def d) {
                state.andNot(named(d.name()));
                state.set(lookup(d).index());
            } else if (e instanceof Accesses.Kill k) {
                state.andNot(named(k.name()));
            } else if (e instanceof Accesses.Choice c) {
                BitSet merged = new BitSet();
                for (List<Accesses.Event> alt : c.alternatives()) merged.or(run(alt, (BitSet) state.clone(), step, visitor));
                state = merged;
            } else if (e instanceof Accesses.Repeat r) {
                while (true) {
                    BitSet more = run(r.body(), (BitSet) state.clone(), step, visitor);
                    more.or(state);
                    if (more.equals(state)) break;
                    state = more;
                }
            }
        }
        return state;
    }

    private static List<Block> reversePostorder(ControlFlowGraph g) {
        int n = g.blocks().size();
        boolean[] seen = new boolean[n];
        List<Block> post = new ArrayList<>(n);
        int[] next = new int[n];
        Block[] stack = new Block[n];
        int sp = 0;
        stack[sp++] = g.entry();
        seen[0] = true;
        while (sp > 0) {
            Block b = stack[sp - 1];
            if (next[b.id()] < b.successors().size()) {
                Block t = b.successors().get(next[b.id()]++).target();
                if (!seen[t.id()]) {
                    seen[t.id()] = true;
                    stack[sp++] = t;
                }
            } else {
                sp--;
                post.add(b);
            }
        }
        Collections.reverse(post);
        return post;
    }

    public static ReachingDefinitions of(ControlFlowGraph g) {
        return new ReachingDefinitions(g);
    }

    public ControlFlowGraph graph() {
        return graph;
    }

    /** Every definition in the graph, in block order (the entry's parameters first). */
    public List<Definition> definitions() {
        return Collections.unmodifiableList(defs);
    }

    /** The definition a node makes of a name, or null. Lookup by node identity. */
    public Definition definition(Node node, String name) {
        Map<String, Definition> m = byNode.get(node);
        return m == null ? null : m.get(name);
    }

    /** The definitions a node makes (a tuple target or import makes several). */
    public List<Definition> definitionsAt(Node node) {
        Map<String, Definition> m = byNode.get(node);
        return m == null ? List.of() : List.copyOf(m.values());
    }

    /** The definitions that reach the start of a block (empty for an unreachable block). */
    public Set<Definition> in(Block b) {
        return set(in[b.id()]);
    }

    /** The definitions live after the block's last step (what its normal edges carry). */
    public Set<Definition> out(Block b) {
        Flow f = flows[b.id()];
        return f == null ? Set.of() : set(f.normal());
    }

    /** The definitions that reach the point just before step {@code index} of the block. */
    public Set<Definition> before(Block b, int index) {
        if (!b.isReachable()) return Set.of();
        BitSet state = (BitSet) in[b.id()].clone();
        List<List<Accesses.Event>> perStep = events.get(b.id());
        for (int i = 0; i < index; i++) state = run(perStep.get(i), state, i, null);
        return set(state);
    }

    /** Runs a reachable block from its entry state, showing the visitor each use and the state it reads. */
    void walk(Block b, EventVisitor visitor) {
        if (b.isReachable()) flow(b, in[b.id()], visitor);
    }

    /** Every use of the block, reachable or not, in order (for listing uses of dead code too). */
    void uses(Block b, java.util.function.Consumer<Expr.Name> into) {
        for (List<Accesses.Event> ev : events.get(b.id())) usesIn(ev, into);
    }

    private static void usesIn(List<Accesses.Event> ev, java.util.function.Consumer<Expr.Name> into) {
        for (Accesses.Event e : ev) {
            if (e instanceof Accesses.Use u) into.accept(u.name());
            else if (e instanceof Accesses.Choice c) for (List<Accesses.Event> alt : c.alternatives()) usesIn(alt, into);
            else if (e instanceof Accesses.Repeat r) usesIn(r.body(), into);
        }
    }

    interface EventVisitor {
        void use(int stepIndex, Expr.Name use, BitSet state);
    }

    /** The definitions of {@code name} in a state. */
    Set<Definition> reachingOf(String name, BitSet state) {
        BitSet x = (BitSet) state.clone();
        x.and(named(name));
        return set(x);
    }

    private Set<Definition> set(BitSet bits) {
        Set<Definition> s = new LinkedHashSet<>();
        for (int i = bits.nextSetBit(0); i >= 0; i = bits.nextSetBit(i + 1)) s.add(defs.get(i));
        return Collections.unmodifiableSet(s);
    }
}
