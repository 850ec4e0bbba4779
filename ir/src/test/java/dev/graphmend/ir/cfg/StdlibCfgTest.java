package dev.graphmend.ir.cfg;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.PythonSourceParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every scope of every file of CPython 3.13's standard library: its graph builds without an
 * exception and passes {@link CfgInvariants} (successor and predecessor lists agree, edge kinds fit
 * their blocks, every statement is placed, the entry dominates every reachable block), and its
 * reaching definitions and def-use chains compute. Writes {@code target/oracle/cfg-stdlib.txt}.
 */
@Tag("oracle")
class StdlibCfgTest {
    static final int THREADS = 2;
    static final int SHOWN = 20;

    @Test
    void everyScopeOfTheStandardLibraryGetsASoundGraph() throws Exception {
        List<Path> files = OracleEnv.stdlibFiles();
        assertTrue(files.size() > 1000, "expected the whole standard library, found " + files.size() + " files");
        AtomicLong graphs = new AtomicLong();
        AtomicLong blocks = new AtomicLong();
        AtomicLong edges = new AtomicLong();
        AtomicLong unreachable = new AtomicLong();
        AtomicLong defs = new AtomicLong();
        AtomicLong uses = new AtomicLong();
        AtomicLong rejected = new AtomicLong();
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        ThreadLocal<PythonSourceParser> parsers = ThreadLocal.withInitial(PythonSourceParser::new);
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (Path f : files) {
                done.add(pool.submit(() -> {
                    try {
                        ParseResult r = parsers.get().parse(Files.readAllBytes(f));
                        if (r.hasErrors()) {
                            rejected.incrementAndGet(); // the few files CPython rejects too; their partial trees still get graphs
                        }
                        List<Node> scopes = new ArrayList<>();
                        scopes.add(r.module());
                        r.module().forEachChild(c -> CfgInvariants.scopes(c, scopes));
                        for (Node s : scopes) {
                            ControlFlowGraph g = ControlFlowGraph.ofScope(s);
                            graphs.incrementAndGet();
                            blocks.addAndGet(g.blocks().size());
                            edges.addAndGet(g.edges().size());
                            for (Block b : g.blocks()) if (!b.isReachable() && b.kind() == Block.Kind.BODY) unreachable.incrementAndGet();
                            List<String> bad = CfgInvariants.check(g);
                            if (!bad.isEmpty() && !r.hasErrors()) {
                                problems.add(f + " " + s.pyType() + "@" + (s.span() == null ? "module" : s.span()) + ": " + bad);
                            }
                            DefUse du = DefUse.of(g);
                            defs.addAndGet(du.definitions().size());
                            uses.addAndGet(du.uses().size());
                        }
                    } catch (Throwable e) {
                        problems.add(f + ": " + e);
                    }
                }));
            }
            for (Future<?> d : done) d.get();
        } finally {
            pool.shutdownNow();
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        String summary = String.format("files: %d (%d rejected by the parser, as by CPython)%ngraphs: %d%nblocks: %d"
                + " (%d body blocks unreachable)%nedges: %d%ndefinitions: %d%nuses: %d%nproblems: %d%nseconds: %.1f%n",
                files.size(), rejected.get(), graphs.get(), blocks.get(), unreachable.get(), edges.get(), defs.get(),
                uses.get(), problems.size(), secs);
        Files.writeString(OracleEnv.reportDir().resolve("cfg-stdlib.txt"),
                summary + String.join("\n", problems) + "\n");
        System.out.println("[StdlibCfgTest]\n" + summary);
        if (!problems.isEmpty()) {
            fail(problems.size() + " problems, first ones:\n  "
                    + String.join("\n  ", problems.subList(0, Math.min(SHOWN, problems.size()))));
        }
    }
}
