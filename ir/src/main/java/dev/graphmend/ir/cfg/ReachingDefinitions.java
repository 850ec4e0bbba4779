package dev.graphmend.ir.cfg;

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
 * A weak definition (see {@link Accesses}: a walrus in a short-circuit operand or a comprehension,
 * the alternatives of an or-pattern) adds itself without killing.
 */
public final class ReachingDefinitions {
    private final ControlFlowGraph graph;
    private final List<Definition> defs = new ArrayList<>();
    private final IdentityHashMap<Node, Map<String, Definition>> byNode = new IdentityHashMap<>();
    private final Map<String, BitSet> byName = new HashMap<>();
    private final List<List<List<Accesses.Event>>> events = new ArrayList<>();
    private final BitSet[] in;
    private final BitSet[] out;

    /** A transfer {@code out = (in - kill) | gen}. */
    private record Transfer(BitSet kill, BitSet gen) {
        BitSet apply(BitSet in) {
            BitSet r = (BitSet) in.clone();
            r.andNot(kill);
            r.or(gen);
            return r;
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
                for (Accesses.Event e : ev) if (e instanceof Accesses.Def d) define(d);
            }
            events.add(perStep);
        }
        Transfer[] normal = new Transfer[n];
        Transfer[] exceptional = new Transfer[n];
        Transfer[] matchFailed = new Transfer[n];
        for (Block b : g.blocks()) summarize(b, normal, exceptional, matchFailed);

        in = new BitSet[n];
        out = new BitSet[n];
        for (int i = 0; i < n; i++) {
            in[i] = new BitSet();
            out[i] = new BitSet();
        }
        List<Block> order = reversePostorder(g);
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Block b : order) {
                BitSet x = new BitSet();
                for (Edge e : b.predecessors()) {
                    Block p = e.source();
                    if (!p.isReachable()) continue;
                    Transfer t = e.kind() == EdgeKind.EXCEPTION ? exceptional[p.id()]
                            : e.kind() == EdgeKind.FALSE && matchFailed[p.id()] != null ? matchFailed[p.id()]
                            : normal[p.id()];
                    x.or(t.apply(in[p.id()]));
                }
                if (!x.equals(in[b.id()])) {
                    in[b.id()] = x;
                    changed = true;
                }
            }
        }
        for (Block b : g.blocks()) if (b.isReachable()) out[b.id()] = normal[b.id()].apply(in[b.id()]);
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

    /** Applies one event to a symbolic (kill, gen) pair. */
    private void apply(Accesses.Event e, BitSet kill, BitSet gen) {
        if (e instanceof Accesses.Def d) {
            if (d.strong()) {
                kill.or(named(d.name()));
                gen.andNot(named(d.name()));
            }
            gen.set(lookup(d).index());
        } else if (e instanceof Accesses.Kill k) {
            kill.or(named(k.name()));
            gen.andNot(named(k.name()));
        }
    }

    private Definition lookup(Accesses.Def d) {
        return byNode.get(d.node()).get(d.name());
    }

    private void summarize(Block b, Transfer[] normal, Transfer[] exceptional, Transfer[] matchFailed) {
        BitSet kill = new BitSet();
        BitSet gen = new BitSet();
        BitSet excKill = null;
        BitSet excGen = new BitSet();
        List<List<Accesses.Event>> perStep = events.get(b.id());
        for (int i = 0; i < b.steps().size(); i++) {
            Step s = b.steps().get(i);
            boolean last = i == b.steps().size() - 1;
            if (last && s.kind() == Step.Kind.MATCH) {
                BitSet g = (BitSet) gen.clone();
                for (Accesses.Event e : perStep.get(i)) if (e instanceof Accesses.Def d) g.set(lookup(d).index());
                matchFailed[b.id()] = new Transfer((BitSet) kill.clone(), g);
            }
            if (CfgBuilder.mayRaise(s)) {
                if (excKill == null) excKill = (BitSet) kill.clone();
                excGen.or(gen);
                for (Accesses.Event e : perStep.get(i)) if (e instanceof Accesses.Def d) excGen.set(lookup(d).index());
            }
            for (Accesses.Event e : perStep.get(i)) apply(e, kill, gen);
        }
        normal[b.id()] = new Transfer(kill, gen);
        // An EXCEPTION edge is taken at a point where a step raises, or at the block's end (a raise,
        // the re-raise after an exceptional finally/exit copy): the union of both.
        if (excKill == null) {
            exceptional[b.id()] = normal[b.id()];
        } else {
            excKill.and(kill);
            excGen.or(gen);
            exceptional[b.id()] = new Transfer(excKill, excGen);
        }
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
        return set(out[b.id()]);
    }

    /** The definitions that reach the point just before step {@code index} of the block. */
    public Set<Definition> before(Block b, int index) {
        BitSet state = (BitSet) in[b.id()].clone();
        if (!b.isReachable()) return Set.of();
        List<List<Accesses.Event>> perStep = events.get(b.id());
        for (int i = 0; i < index; i++) for (Accesses.Event e : perStep.get(i)) step(e, state);
        return set(state);
    }

    /** Runs the block's events from its entry state; the walker sees the state before each event. */
    void walk(Block b, EventVisitor visitor) {
        BitSet state = (BitSet) in[b.id()].clone();
        List<List<Accesses.Event>> perStep = events.get(b.id());
        for (int i = 0; i < perStep.size(); i++) {
            for (Accesses.Event e : perStep.get(i)) {
                visitor.visit(i, e, state);
                step(e, state);
            }
        }
    }

    interface EventVisitor {
        void visit(int stepIndex, Accesses.Event event, BitSet stateBefore);
    }

    private void step(Accesses.Event e, BitSet state) {
        if (e instanceof Accesses.Def d) {
            if (d.strong()) state.andNot(named(d.name()));
            state.set(lookup(d).index());
        } else if (e instanceof Accesses.Kill k) {
            state.andNot(named(k.name()));
        }
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
