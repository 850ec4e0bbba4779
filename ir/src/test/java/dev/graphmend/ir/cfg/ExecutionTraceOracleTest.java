package dev.graphmend.ir.cfg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.graphmend.ir.ast.ExceptHandler;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.PythonSourceParser;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The graphs against real executions: random functions from {@link RandomPrograms} (a quarter of
 * them generators) run in CPython 3.13 on random arguments under {@code sys.settrace}
 * ({@code src/test/resources/cfg/trace_harness.py}); every step of every trace must be a path of
 * the function's graph.
 *
 * <p>Each step of a block is a point labelled with the line CPython reports for it (the header
 * line for a compound statement's parts, the {@code with} line again for {@code __exit__}); the
 * first block of a {@code try} body is labelled with the {@code try} line (CPython reports it on
 * entry); parameters, empty blocks and the implicit {@code del} of a handler's name report nothing.
 * A trace step from line A to line B is explained when some point of line A reaches some point of
 * line B along the graph's edges through points of line A or points that report nothing. Inside
 * a block control moves step to step; it leaves by the block's edges from its end, and by an
 * EXCEPTION edge from any step that may raise. The first line must be reachable from the entry
 * that way; a run that returns must end with a line that reaches the exit; a run that raises must
 * end with a line that reaches the raise exit or is a step that may raise outside any handler.
 * Every run is checked against the graph and against the fallback graph with shared finally
 * bodies (which must be sound too).
 */
@Tag("oracle")
class ExecutionTraceOracleTest {
    static final int FUNCTIONS = 400;
    static final int RUNS = 8;
    static final long SEED = 20261130L;
    static final int SHOWN = 5;

    @Test
    void everyTransitionOfRealExecutionsIsAPathOfTheGraph() throws Exception {
        Path python = OracleEnv.python();
        Path dir = OracleEnv.reportDir().resolve("trace");
        Files.createDirectories(dir);
        Random seeds = new Random(SEED);
        List<String> sources = new ArrayList<>();
        List<Boolean> generators = new ArrayList<>();
        StringBuilder json = new StringBuilder("[\n");
        for (int i = 0; i < FUNCTIONS; i++) {
            boolean gen = i % 4 == 3;
            RandomPrograms.Options all = RandomPrograms.Options.all();
            RandomPrograms.Options o = new RandomPrograms.Options(gen, all.exceptions(), all.with(), all.match(),
                    all.walrus(), all.del(), all.maxDepth(), all.maxStatements());
            String src = RandomPrograms.function(new Random(seeds.nextLong()), "f", o);
            sources.add(src);
            generators.add(gen);
            json.append(i == 0 ? "" : ",\n").append("{\"gen\": ").append(gen).append(", \"src\": \"")
                    .append(src.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")).append("\"}");
        }
        json.append("\n]\n");
        Path programs = dir.resolve("programs.json");
        Path traces = dir.resolve("traces.txt");
        Path harness = dir.resolve("trace_harness.py");
        Files.writeString(programs, json.toString());
        try (InputStream in = getClass().getResourceAsStream("/cfg/trace_harness.py")) {
            assertNotNull(in, "cfg/trace_harness.py is missing from the test resources");
            Files.write(harness, in.readAllBytes());
        }
        Process p = new ProcessBuilder(python.toString(), harness.toString(), programs.toString(), traces.toString(),
                String.valueOf(SEED), String.valueOf(RUNS)).redirectErrorStream(true).start();
        String pyOut = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the harness did not finish");
        assertEquals(0, p.exitValue(), "the harness failed:\n" + pyOut);

        PythonSourceParser parser = new PythonSourceParser();
        List<Points> graphs = new ArrayList<>();
        List<Points> shared = new ArrayList<>();
        for (String src : sources) {
            ParseResult r = parser.parse(src);
            assertTrue(r.errors().isEmpty(), () -> "generated code does not parse: " + r.errors() + "\n" + src);
            Stmt.FunctionDef fn = (Stmt.FunctionDef) r.module().body().get(0);
            graphs.add(new Points(ControlFlowGraph.of(fn), r));
            // The fallback for huge graphs (one shared copy per finally body) must be sound too.
            shared.add(new Points(CfgBuilder.build(fn, true), r));
        }
        long runs = 0;
        long raised = 0;
        long steps = 0;
        long exceptional = 0;
        Set<String> distinct = new HashSet<>();
        List<String> problems = new ArrayList<>();
        for (String line : Files.readAllLines(traces)) {
            String[] f = line.trim().split(" ");
            int index = Integer.parseInt(f[0]);
            boolean returned = f[2].equals("R");
            int[] lines = new int[f.length - 3];
            for (int i = 3; i < f.length; i++) lines[i - 3] = Integer.parseInt(f[i]);
            runs++;
            if (!returned) raised++;
            for (Points g : List.of(graphs.get(index), shared.get(index))) {
                String variant = g == graphs.get(index) ? "" : " (graph with shared finally bodies)";
                List<String> bad = new ArrayList<>();
                if (lines.length == 0) {
                    bad.add("no line ran");
                } else {
                    if (!g.from(Points.ENTRY).labels.contains(lines[0])) bad.add("line " + lines[0] + " cannot come first");
                    for (int i = 0; i + 1 < lines.length; i++) {
                        Reach r = g.from(lines[i]);
                        if (variant.isEmpty()) {
                            steps++;
                            distinct.add(index + ":" + lines[i] + ">" + lines[i + 1]);
                            if (r.viaException.contains(lines[i + 1])) exceptional++;
                        }
                        if (!r.labels.contains(lines[i + 1])) {
                            bad.add("line " + lines[i] + " -> " + lines[i + 1] + " (step " + i + ") is no path of the graph");
                        }
                    }
                    Reach last = g.from(lines[lines.length - 1]);
                    if (returned && !last.exit) bad.add("the run returned after line " + lines[lines.length - 1] + ", which cannot reach the exit");
                    if (!returned && !last.raise && !last.escape) {
                        bad.add("the run raised after line " + lines[lines.length - 1] + ", which cannot raise out of the function");
                    }
                }
                if (!bad.isEmpty()) {
                    problems.add("function " + index + (generators.get(index) ? " (generator)" : "") + ", run " + f[1]
                            + variant + ": " + bad + "\ntrace: " + line + "\n" + numbered(sources.get(index))
                            + g.graph.dump(g.source.source()));
                }
            }
        }
        Map<EdgeKind, Integer> kinds = new java.util.EnumMap<>(EdgeKind.class);
        for (Points g : graphs) for (Edge e : g.graph.edges()) kinds.merge(e.kind(), 1, Integer::sum);
        String summary = String.format("functions: %d (%d generators), runs: %d (%d raised out of the function)%n"
                + "transitions checked: %d (%d distinct; %d explained only through an exception edge)%n"
                + "edges of the graphs by kind: %s%nunexplained runs: %d%n", FUNCTIONS, FUNCTIONS / 4, runs, raised,
                steps, distinct.size(), exceptional, kinds, problems.size());
        Files.writeString(OracleEnv.reportDir().resolve("cfg-traces.txt"), summary + String.join("\n\n", problems) + "\n");
        System.out.println("[ExecutionTraceOracleTest]\n" + summary);
        assertEquals((long) FUNCTIONS * RUNS, runs, "the harness did not report every run:\n" + pyOut);
        if (!problems.isEmpty()) {
            fail(problems.size() + " runs are not paths of their graphs, first ones:\n\n"
                    + String.join("\n\n", problems.subList(0, Math.min(SHOWN, problems.size()))));
        }
    }

    private static String numbered(String src) {
        StringBuilder sb = new StringBuilder();
        String[] ls = src.split("\n");
        for (int i = 0; i < ls.length; i++) sb.append(String.format("%3d  %s%n", i + 1, ls[i]));
        return sb.toString();
    }

    /** What can follow the points of one line, through points of that line or silent ones. */
    record Reach(Set<Integer> labels, Set<Integer> viaException, boolean exit, boolean raise, boolean escape) {}

    /** A graph as points: each block's start, each of its steps, its end. */
    static final class Points {
        static final int ENTRY = -1;
        final ControlFlowGraph graph;
        final ParseResult source;
        final List<int[]> succ = new ArrayList<>();
        final List<Boolean> succViaException = new ArrayList<>();
        final List<List<Boolean>> exceptional = new ArrayList<>();
        final List<Integer> label = new ArrayList<>();
        final List<Boolean> escapes = new ArrayList<>();
        final int[] start;
        final int[] end;
        final Map<Integer, Reach> memo = new HashMap<>();

        Points(ControlFlowGraph g, ParseResult source) {
            this.graph = g;
            this.source = source;
            int n = g.blocks().size();
            start = new int[n];
            end = new int[n];
            Map<Block, Integer> tryLine = new HashMap<>();
            for (Stmt s : CfgInvariants.statementsOf(g.scope())) {
                if (s instanceof Stmt.Try) for (Block b : g.blocksOf(s)) tryLine.put(b, s.span().line());
            }
            List<List<Integer>> adj = new ArrayList<>();
            List<List<Boolean>> exc = new ArrayList<>();
            for (Block b : g.blocks()) {
                start[b.id()] = point(adj, exc, tryLine.getOrDefault(b, 0), false);
                boolean protectedBlock = b.successors().stream().anyMatch(e -> e.kind() == EdgeKind.EXCEPTION);
                for (Step s : b.steps()) {
                    point(adj, exc, lineOf(s), CfgBuilder.mayRaise(s) && !protectedBlock);
                }
                end[b.id()] = point(adj, exc, 0, false);
            }
            for (Block b : g.blocks()) {
                for (int p = start[b.id()]; p < end[b.id()]; p++) link(adj, exc, p, p + 1, false);
                for (Edge e : b.successors()) {
                    int t = start[e.target().id()];
                    link(adj, exc, end[b.id()], t, e.kind() == EdgeKind.EXCEPTION);
                    if (e.kind() == EdgeKind.EXCEPTION) {
                        for (int i = 0; i < b.steps().size(); i++) {
                            if (CfgBuilder.mayRaise(b.steps().get(i))) link(adj, exc, start[b.id()] + 1 + i, t, true);
                        }
                    }
                }
            }
            for (int i = 0; i < adj.size(); i++) {
                succ.add(adj.get(i).stream().mapToInt(Integer::intValue).toArray());
                exceptional.add(exc.get(i));
            }
        }

        private int point(List<List<Integer>> adj, List<List<Boolean>> exc, int line, boolean escape) {
            adj.add(new ArrayList<>());
            exc.add(new ArrayList<>());
            label.add(line);
            escapes.add(escape);
            return label.size() - 1;
        }

        private static void link(List<List<Integer>> adj, List<List<Boolean>> exc, int from, int to, boolean viaException) {
            adj.get(from).add(to);
            exc.get(from).add(viaException);
        }

        /** The line CPython reports for a step; 0 for steps it reports nothing for. */
        static int lineOf(Step s) {
            return switch (s.kind()) {
                case PARAMETERS, UNBIND -> 0;
                case HANDLER, EXCEPT -> ((ExceptHandler) s.node()).span().line();
                default -> s.line();
            };
        }

        Reach from(int line) {
            return memo.computeIfAbsent(line, this::search);
        }

        private Reach search(int line) {
            Set<Integer> labels = new HashSet<>();
            Set<Integer> viaExc = new HashSet<>();
            boolean exit = false;
            boolean raise = false;
            boolean escape = false;
            ArrayDeque<int[]> work = new ArrayDeque<>(); // point, reached through an exception edge (0/1)
            Set<Long> seen = new HashSet<>();
            List<Integer> sources = new ArrayList<>();
            if (line == ENTRY) {
                sources.add(start[graph.entry().id()]);
            } else {
                for (int p = 0; p < label.size(); p++) {
                    if (label.get(p) == line) {
                        sources.add(p);
                        if (escapes.get(p)) escape = true;
                    }
                }
            }
            for (int s : sources) {
                for (int i = 0; i < succ.get(s).length; i++) {
                    int[] item = {succ.get(s)[i], exceptional.get(s).get(i) ? 1 : 0};
                    if (seen.add(item[0] * 2L + item[1])) work.add(item);
                }
            }
            while (!work.isEmpty()) {
                int[] item = work.poll();
                int p = item[0];
                int l = label.get(p);
                if (p == start[graph.exit().id()]) exit = true;
                if (p == start[graph.raiseExit().id()]) raise = true;
                if (l != 0) {
                    labels.add(l);
                    if (item[1] == 1) viaExc.add(l);
                }
                if (l == line && escapes.get(p)) escape = true;
                if (l != 0 && l != line) continue;
                for (int i = 0; i < succ.get(p).length; i++) {
                    int[] next = {succ.get(p)[i], item[1] == 1 || exceptional.get(p).get(i) ? 1 : 0};
                    if (seen.add(next[0] * 2L + next[1])) work.add(next);
                }
            }
            return new Reach(labels, viaExc, exit, raise, escape);
        }
    }
}
