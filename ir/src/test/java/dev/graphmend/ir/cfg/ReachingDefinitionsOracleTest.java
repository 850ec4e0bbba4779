package dev.graphmend.ir.cfg;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.PythonSourceParser;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Reaching definitions and def-use chains against {@link PathSemantics}, an interpreter over sets
 * of environments that never looks at a graph, on random functions from {@link RandomPrograms}:
 * for every name read, the definitions that reach it must be exactly those the oracle sees arrive
 * on some path; every read the oracle reaches must be a use the chains know. Needs no CPython.
 * Writes {@code target/oracle/cfg-reaching.txt}.
 */
class ReachingDefinitionsOracleTest {
    static final int FUNCTIONS = 1500;
    static final long SEED = 0x5EED_CF6L;
    static final int SHOWN = 3;

    @Test
    void reachingDefinitionsEqualAllPathsSemanticsOnRandomFunctions() throws Exception {
        PythonSourceParser parser = new PythonSourceParser();
        Random seeds = new Random(SEED);
        long uses = 0;
        long pairs = 0;
        long emptyUses = 0;
        long multiDefUses = 0;
        long deadUses = 0;
        List<String> mismatches = new ArrayList<>();
        for (int i = 0; i < FUNCTIONS; i++) {
            long seed = seeds.nextLong();
            String src = RandomPrograms.function(new Random(seed), "f", RandomPrograms.Options.all());
            ParseResult r = parser.parse(src);
            assertTrue(r.errors().isEmpty(), () -> "generated code does not parse: " + r.errors() + "\n" + src);
            Stmt.FunctionDef f = (Stmt.FunctionDef) r.module().body().get(0);
            ControlFlowGraph g = ControlFlowGraph.of(f);
            DefUse du = DefUse.of(g);
            PathSemantics oracle = PathSemantics.run(f);

            List<String> bad = new ArrayList<>();
            Set<Expr.Name> known = Collections.newSetFromMap(new IdentityHashMap<>());
            known.addAll(du.uses());
            for (Expr.Name use : oracle.reaching.keySet()) {
                if (!known.contains(use)) bad.add("the oracle reads " + use.id() + "@" + use.span() + ", the chains have no such use");
            }
            for (Expr.Name use : du.uses()) {
                Set<Node> expected = oracle.reaching.get(use);
                if (expected == null) {
                    deadUses++;
                    expected = Set.of();
                }
                Set<Node> actual = Collections.newSetFromMap(new IdentityHashMap<>());
                for (Definition d : du.definitionsOf(use)) actual.add(d.node());
                uses++;
                pairs += actual.size();
                if (expected.isEmpty()) emptyUses++;
                if (expected.size() > 1) multiDefUses++;
                if (!sameNodes(expected, actual)) {
                    bad.add(use.id() + "@" + use.span() + ": chains say " + spans(actual) + ", all paths give " + spans(expected));
                }
            }
            if (!bad.isEmpty()) {
                mismatches.add("seed " + seed + ":\n" + src + g.dump(r.source()) + String.join("\n", bad));
            }
        }
        String summary = String.format("functions: %d (seed %d)%nuses compared: %d (%d reached by no path: dead code)%n"
                + "use-definition pairs: %d%nuses with no definition: %d, with several: %d%nmismatching functions: %d%n",
                FUNCTIONS, SEED, uses, deadUses, pairs, emptyUses, multiDefUses, mismatches.size());
        Files.writeString(OracleEnv.reportDir().resolve("cfg-reaching.txt"), summary + String.join("\n\n", mismatches) + "\n");
        System.out.println("[ReachingDefinitionsOracleTest]\n" + summary);
        if (!mismatches.isEmpty()) {
            fail(mismatches.size() + " functions differ, first ones:\n\n"
                    + String.join("\n\n", mismatches.subList(0, Math.min(SHOWN, mismatches.size()))));
        }
    }

    private static boolean sameNodes(Set<Node> a, Set<Node> b) {
        if (a.size() != b.size()) return false;
        for (Node n : a) if (!b.contains(n)) return false;
        return true;
    }

    private static String spans(Set<Node> nodes) {
        return nodes.stream().map(n -> n.pyType() + "@" + n.span()).sorted().collect(Collectors.joining(", ", "{", "}"));
    }
}
