package dev.graphmend.bench;

import dev.graphmend.ir.document.PythonDocument;
import dev.graphmend.ir.document.TextChange;
import dev.graphmend.ir.document.UniIR;
import dev.graphmend.passes.Analyzer;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Edit-to-diagnostics time inside one process, the engine's share of the language server's
 * didChange → publishDiagnostics latency (issue 6), split into its phases: the incremental
 * document and UniIR, the project (modules, classes, imports), and the analysis of the edited
 * file. The workload is the one of bench/lsp_latency.py: a keystroke in a function body in the
 * middle of the file (insert "x" at the end of the line's first token, then delete it), with
 * every file of the list in the project, as the server's workspace index has them.
 *
 * <p>Usage: AnalysisBench FILE... (the first is edited in turn, then the next, ...)
 */
public final class AnalysisBench {
    public static void main(String[] args) throws Exception {
        List<Path> files = new ArrayList<>();
        for (String a : args) files.add(Path.of(a));
        AnalysisConfig config = AnalysisConfig.defaults();
        List<SourceModule> modules = new ArrayList<>();
        List<UniIR> irs = new ArrayList<>();
        for (Path p : files) {
            UniIR ir = UniIR.of(PythonDocument.open(Files.readString(p), 0));
            irs.add(ir);
            modules.add(module(p, ir));
        }
        System.out.printf("JVM %s %s, %d CPUs%n", System.getProperty("java.vm.name"), System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors());
        for (int k = 0; k < files.size(); k++) {
            Path p = files.get(k);
            String text = irs.get(k).document().text();
            String[] lines = text.split("\n", -1);
            int line = editLine(lines);
            String l = lines[line];
            int col = l.length() - l.stripLeading().length();
            while (col < l.length() && (Character.isLetterOrDigit(l.charAt(col)) || l.charAt(col) == '_')) col++;
            UniIR ir = irs.get(k);
            int n = 600;
            long[] doc = new long[n], proj = new long[n], ana = new long[n], total = new long[n];
            int diags = 0;
            for (int i = 0; i < n + 200; i++) {
                PythonDocument d = ir.document();
                long t0 = System.nanoTime();
                TextChange change = i % 2 == 0
                        ? TextChange.replace(line, col, line, col, "x")
                        : TextChange.replace(line, col, line, col + 1, "");
                d = d.apply(change, d.version() + 1);
                ir = ir.next(d);
                SourceModule mine = module(p, ir);
                long t1 = System.nanoTime();
                List<SourceModule> all = new ArrayList<>(modules);
                all.set(k, mine);
                Project project = new Project(all, config);
                long t2 = System.nanoTime();
                Map<SourceModule, List<Diagnostic>> found = Analyzer.analyze(project, mine);
                diags = found.get(mine).size();
                long t3 = System.nanoTime();
                if (i >= 200) {
                    int j = i - 200;
                    doc[j] = t1 - t0;
                    proj[j] = t2 - t1;
                    ana[j] = t3 - t2;
                    total[j] = t3 - t0;
                }
            }
            irs.set(k, ir);
            System.out.printf("%s (%d lines), edit at %d:%d, %d diagnostics, %d edits after 200 warm-up%n",
                    p.getFileName(), lines.length, line + 1, col, diags, n);
            row("document + UniIR", doc);
            row("project", proj);
            row("analysis of the file", ana);
            row("edit -> diagnostics", total);
        }
    }

    private static SourceModule module(Path p, UniIR ir) {
        String name = p.getFileName().toString().replaceFirst("\\.py$", "");
        return new SourceModule(p.toString(), name, false, ir);
    }

    /** The line bench/lsp_latency.py edits (its pick_edit_line): nearest the middle, `NAME = ` directly in a def. */
    static int editLine(String[] lines) {
        java.util.regex.Pattern assign = java.util.regex.Pattern.compile("^( {8,})([A-Za-z_][A-Za-z_0-9]*) = ");
        java.util.regex.Pattern def = java.util.regex.Pattern.compile("^\\s*(async\\s+)?def ");
        int mid = lines.length / 2;
        Integer[] order = new Integer[lines.length];
        for (int i = 0; i < order.length; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> Integer.compare(Math.abs(a - mid), Math.abs(b - mid)));
        for (int i : order) {
            java.util.regex.Matcher m = assign.matcher(lines[i]);
            if (!m.find() || !lines[i].chars().allMatch(c -> c < 128)) continue;
            int ind = m.group(1).length();
            for (int j = i - 1; j > Math.max(-1, i - 200); j--) {
                String lj = lines[j];
                if (lj.isBlank()) continue;
                if (lj.length() - lj.stripLeading().length() < ind) {
                    if (def.matcher(lj).find()) return i;
                    break;
                }
            }
        }
        throw new IllegalStateException("no edit line found");
    }

    private static void row(String what, long[] ns) {
        long[] s = ns.clone();
        Arrays.sort(s);
        System.out.printf("  %-22s p50 %7.3f ms  p95 %7.3f ms  p99 %7.3f ms%n", what, s[s.length / 2] / 1e6,
                s[(int) (s.length * 0.95)] / 1e6, s[(int) (s.length * 0.99)] / 1e6);
    }
}
