package dev.graphmend.ir.cfg;

import dev.graphmend.ir.ast.Expr;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Def-use chains from {@link ReachingDefinitions}: for each name read in the graph, the
 * definitions that may have produced its value; for each definition, the reads it may reach.
 * A use is an {@code Expr.Name} in Load context, plus the target of an augmented assignment on a
 * name ({@code x += 1} reads {@code x}). Uses in unreachable blocks are listed with no definitions.
 * Lookup is by node identity. Names only: scoping is the symbol tables' business (see
 * {@link ReachingDefinitions}).
 */
public final class DefUse {
    private final ReachingDefinitions reaching;
    private final IdentityHashMap<Expr.Name, Set<Definition>> defsOfUse = new IdentityHashMap<>();
    private final List<Expr.Name> uses = new ArrayList<>();
    private final Map<Definition, List<Expr.Name>> usesOfDef = new IdentityHashMap<>();

    private DefUse(ReachingDefinitions rd) {
        this.reaching = rd;
        for (Block b : rd.graph().blocks()) {
            rd.uses(b, use -> {
                if (!defsOfUse.containsKey(use)) {
                    defsOfUse.put(use, new LinkedHashSet<>());
                    uses.add(use);
                }
            });
            rd.walk(b, (step, use, state) -> {
                Set<Definition> ds = defsOfUse.get(use);
                for (Definition d : rd.reachingOf(use.id(), state)) {
                    if (ds.add(d)) usesOfDef.computeIfAbsent(d, k -> new ArrayList<>()).add(use);
                }
            });
        }
    }

    public static DefUse of(ControlFlowGraph g) {
        return new DefUse(ReachingDefinitions.of(g));
    }

    public static DefUse of(ReachingDefinitions rd) {
        return new DefUse(rd);
    }

    public ReachingDefinitions reaching() {
        return reaching;
    }

    /** Every use, once each, in block order. */
    public List<Expr.Name> uses() {
        return Collections.unmodifiableList(uses);
    }

    /** The definitions that may reach this use; empty for a global/builtin/free/unbound name or a non-use. */
    public Set<Definition> definitionsOf(Expr.Name use) {
        Set<Definition> s = defsOfUse.get(use);
        return s == null ? Set.of() : Collections.unmodifiableSet(s);
    }

    /** The uses a definition may reach, in block order; empty for a dead definition. */
    public List<Expr.Name> usesOf(Definition d) {
        List<Expr.Name> l = usesOfDef.get(d);
        return l == null ? List.of() : Collections.unmodifiableList(l);
    }

    /** All definitions of the graph. */
    public List<Definition> definitions() {
        return reaching.definitions();
    }
}
