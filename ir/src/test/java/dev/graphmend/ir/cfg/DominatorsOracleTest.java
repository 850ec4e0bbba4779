package dev.graphmend.ir.cfg;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.PythonSourceParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Dominators and post-dominators against their definition, by brute force, for every scope of a
 * sample of the CPython 3.13 standard library (every 5th file, sorted by path: about 345 files).
 *
 * <p>{@code d} dominates {@code n} iff {@code n} is reachable from the entry and is {@code d} or
 * becomes unreachable when {@code d} is removed. {@code d} post-dominates {@code n} iff {@code n}
 * reaches an exit (the exit or the raise exit) and is {@code d} or reaches none once {@code d} is
 * removed. Every ordered pair of blocks is compared with {@link Dominators#dominates}, and every
 * block's immediate (post-)dominator with the strict (post-)dominator that all the others
 * (post-)dominate (none: null). The figures go to {@code target/oracle/cfg-dominators.txt}.
 */
@Tag("oracle")
class DominatorsOracleTest {
    static final int EVERY = 5;
    static final int MIN_FILES = 300;
    static final int SHOWN = 20;

    @Test
    void dominatorsAndPostDominatorsMatchTheirDefinitionOnTheStandardLibrary() throws Exception {
        List<Path> all = OracleEnv.stdlibFiles();
        List<Path> sample = new ArrayList<>();
        for (int i = 0; i < all.size(); i += EVERY) sample.add(all.get(i));
        assertTrue(sample.size() >= MIN_FILES, "sample has only " + sample.size() + " files");

        AtomicLong graphs = new AtomicLong();
        AtomicLong blocks = new AtomicLong();
        AtomicLong pairs = new AtomicLong();
        AtomicLong dominancePairs = new AtomicLong();
        AtomicLong postPairs = new AtomicLong();
        AtomicLong idoms = new AtomicLong();
        List<String> mismatches = Collections.synchronizedList(new ArrayList<>());
        ThreadLocal<PythonSourceParser> parsers = ThreadLocal.withInitial(PythonSourceParser::new);
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (Path f : sample) {
                futures.add(pool.submit(() -> {
                    ParseResult r = parsers.get().parse(Files.readAllBytes(f));
                    List<Node> scopes = new ArrayList<>();
                    scopes.add(r.module());
                    r.module().forEachChild(c -> CfgInvariants.scopes(c, scopes));
                    for (Node s : scopes) {
                        ControlFlowGraph g = ControlFlowGraph.ofScope(s);
                        graphs.incrementAndGet();
                        int n = g.blocks().size();
                        blocks.addAndGet(n);
                        pairs.addAndGet(2L * n * n);
                        String where = f.getFileName() + " " + s.pyType() + "@" + (s.span() == null ? "module" : s.span().line());
                        for (boolean post : new boolean[] {false, true}) {
                            BitSet[] truth = bruteForce(g, post);
                            Dominators dom = post ? Dominators.postDominatorsOf(g) : Dominators.of(g);
                            for (Block d : g.blocks()) {
                                for (Block x : g.blocks()) {
                                    boolean expected = truth[d.id()].get(x.id());
                                    if (expected) (post ? postPairs : dominancePairs).incrementAndGet();
                                    if (dom.dominates(d, x) != expected) {
                                        mismatches.add(where + (post ? " post" : "") + ": " + d + " dominates " + x
                                                + " is " + expected + " by definition");
                                    }
                                }
                            }
                            for (Block x : g.blocks()) {
                                Block expected = immediate(g, truth, x);
                                idoms.incrementAndGet();
                                if (dom.immediateDominator(x) != expected) {
                                    mismatches.add(where + (post ? " post" : "") + ": immediate dominator of " + x
                                            + " is " + dom.immediateDominator(x) + ", by definition " + expected);
                                }
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> fu : futures) fu.get();
        } finally {
            pool.shutdownNow();
        }
        String summary = String.format("files: %d (every %dth of %d)%ngraphs: %d%nblocks: %d%nordered pairs compared: %d"
                + " (dominators and post-dominators)%n  of which dominating: %d, post-dominating: %d%n"
                + "immediate (post-)dominators compared: %d%nmismatches: %d%nseconds: %.1f%n",
                sample.size(), EVERY, all.size(), graphs.get(), blocks.get(), pairs.get(), dominancePairs.get(),
                postPairs.get(), idoms.get(), mismatches.size(), (System.nanoTime() - t0) / 1e9);
        Files.writeString(OracleEnv.reportDir().resolve("cfg-dominators.txt"), summary + String.join("\n", mismatches) + "\n");
        System.out.println("[DominatorsOracleTest]\n" + summary);
        if (!mismatches.isEmpty()) {
            fail(mismatches.size() + " mismatches, first ones:\n  "
                    + String.join("\n  ", mismatches.subList(0, Math.min(SHOWN, mismatches.size()))));
        }
    }

    /** {@code result[d]} = the blocks {@code d} (post-)dominates, by removing {@code d} and searching. */
    static BitSet[] bruteForce(ControlFlowGraph g, boolean post) {
        int n = g.blocks().size();
        BitSet base = search(g, post, -1);
        BitSet[] result = new BitSet[n];
        for (int d = 0; d < n; d++) {
            BitSet without = search(g, post, d);
            BitSet dominated = (BitSet) base.clone();
            dominated.andNot(without); // covered before, lost without d (d itself included: it is never searched)
            if (!base.get(d)) dominated.clear();
            result[d] = dominated;
        }
        return result;
    }

    /** Blocks reached from the entry (or, backwards, reaching an exit) without entering {@code removed}. */
    static BitSet search(ControlFlowGraph g, boolean post, int removed) {
        BitSet seen = new BitSet();
        ArrayDeque<Block> work = new ArrayDeque<>();
        List<Block> roots = post ? List.of(g.exit(), g.raiseExit()) : List.of(g.entry());
        for (Block r : roots) {
            if (r.id() != removed) {
                seen.set(r.id());
                work.add(r);
            }
        }
        while (!work.isEmpty()) {
            Block b = work.poll();
            for (Edge e : post ? b.predecessors() : b.successors()) {
                Block t = post ? e.source() : e.target();
                if (t.id() != removed && !seen.get(t.id())) {
                    seen.set(t.id());
                    work.add(t);
                }
            }
        }
        return seen;
    }

    /** The strict dominator of {@code x} that every other strict dominator of {@code x} dominates. */
    static Block immediate(ControlFlowGraph g, BitSet[] dom, Block x) {
        List<Block> strict = new ArrayList<>();
        for (Block d : g.blocks()) if (d != x && dom[d.id()].get(x.id())) strict.add(d);
        for (Block c : strict) {
            boolean all = true;
            for (Block other : strict) if (!dom[other.id()].get(c.id())) all = false;
            if (all) return c;
        }
        return null;
    }
}
