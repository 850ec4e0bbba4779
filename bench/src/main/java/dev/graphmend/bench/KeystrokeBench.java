package dev.graphmend.bench;

import dev.graphmend.ir.document.PythonDocument;
import dev.graphmend.ir.document.TextChange;
import dev.graphmend.ir.document.UniIR;
import dev.graphmend.passes.AnalysisHost;
import dev.graphmend.passes.AnalysisMemo;
import dev.graphmend.passes.Analyzer;
import dev.graphmend.passes.Findings;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * The language server's work for one keystroke, inside one process and without the protocol: the
 * same steps as its analysis thread (the incremental document and UniIR, the module's symbols and
 * names, the project built from the last one by an {@link AnalysisHost}, the analysis with the
 * document's {@link AnalysisMemo}), timed apart, in a workspace of other modules as the server's
 * index holds them. Less noisy than bench/lsp_latency.py (no client, no JSON, no other process), so
 * a change of a few hundred microseconds in one phase shows; the figures that judge latency stay
 * that benchmark's.
 *
 * <p>Two edit kinds, each made and undone in turn at the line bench/lsp_latency.py edits: {@code
 * type} inserts a letter into the name the line assigns (no line moves); {@code enter} breaks the
 * line after its end (every statement below moves one line down, then back).
 *
 * <p>Usage: KeystrokeBench FILE KIND [EDITS] [WORKSPACE_DIR]
 */
public final class KeystrokeBench {
    public static void main(String[] args) throws Exception {
        if (args.length < 2 || !List.of("type", "enter").contains(args[1])) {
            System.err.println("usage: KeystrokeBench FILE type|enter [EDITS] [WORKSPACE_DIR]");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        boolean enter = args[1].equals("enter");
        int edits = args.length > 2 ? Integer.parseInt(args[2]) : 600;
        AnalysisConfig config = AnalysisConfig.defaults();
        List<SourceModule> workspace = new ArrayList<>();
        if (args.length > 3) {
            List<ProjectLoader.Input> inputs = new ArrayList<>();
            try (Stream<Path> files = Files.walk(Path.of(args[3]))) {
                files.filter(p -> p.toString().endsWith(".py")).sorted().forEach(p -> inputs.add(new ProjectLoader.Input(p, p.toString())));
            }
            workspace.addAll(ProjectLoader.load(inputs, config).project().modules());
        }
        String text = Files.readString(file);
        String[] lines = text.split("\n", -1);
        int line = AnalysisBench.editLine(lines);
        String l = lines[line];
        String indent = l.substring(0, l.length() - l.stripLeading().length());
        int nameEnd = l.indexOf(" = ");
        UniIR ir = UniIR.of(PythonDocument.open(text, 1));
        AnalysisHost host = new AnalysisHost();
        AnalysisMemo memo = new AnalysisMemo();
        // the server infers the workspace's facts once, before the first file is analysed
        host.project(with(workspace, module(file, ir)), config).inferProjectFacts();
        int warmup = Math.max(200, edits / 3);
        long[][] phases = new long[4][edits];
        int diagnostics = 0;
        for (int i = 0; i < warmup + edits; i++) {
            boolean undo = i % 2 == 1;
            TextChange change = enter
                    ? (undo ? TextChange.replace(line, l.length(), line + 1, indent.length(), "")
                            : TextChange.replace(line, l.length(), line, l.length(), "\n" + indent))
                    : (undo ? TextChange.replace(line, nameEnd, line, nameEnd + 1, "")
                            : TextChange.replace(line, nameEnd, line, nameEnd, "q"));
            long t0 = System.nanoTime();
            PythonDocument d = ir.document().apply(change, ir.document().version() + 1);
            ir = ir.next(d);
            long t1 = System.nanoTime();
            SourceModule mine = module(file, ir);
            long t2 = System.nanoTime();
            Project project = host.project(with(workspace, mine), config);
            long t3 = System.nanoTime();
            Findings found = Analyzer.analyze(project, mine, memo);
            long t4 = System.nanoTime();
            diagnostics = found.get(mine).size();
            if (i >= warmup) {
                int j = i - warmup;
                phases[0][j] = t1 - t0;
                phases[1][j] = t2 - t1;
                phases[2][j] = t3 - t2;
                phases[3][j] = t4 - t3;
            }
        }
        System.out.printf("JVM %s %s, %d CPUs; %s (%d lines), %d other modules; %s at line %d, %d edits after %d warm-up;"
                        + " %d diagnostics; last: %d functions reused, %d analysed (%s)%n",
                System.getProperty("java.vm.name"), System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                file.getFileName(), lines.length, workspace.size(), args[1], line + 1, edits, warmup, diagnostics, memo.reused(),
                memo.analysed(), memo.lastMode());
        String[] names = {"document + UniIR", "symbols and names", "project", "engine"};
        for (int k = 0; k < names.length; k++) row(names[k], phases[k]);
    }

    private static List<SourceModule> with(List<SourceModule> workspace, SourceModule mine) {
        List<SourceModule> all = new ArrayList<>(workspace);
        all.add(mine);
        return all;
    }

    private static SourceModule module(Path p, UniIR ir) {
        return new SourceModule(p.toString(), p.getFileName().toString().replaceFirst("\\.py$", ""), false, ir);
    }

    private static void row(String what, long[] ns) {
        long[] s = ns.clone();
        Arrays.sort(s);
        System.out.printf("  %-18s p50 %7.3f ms  p95 %7.3f ms%n", what, s[s.length / 2] / 1e6, s[(int) (s.length * 0.95)] / 1e6);
    }
}
