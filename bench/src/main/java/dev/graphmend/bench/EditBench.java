package dev.graphmend.bench;

import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.document.PythonDocument;
import dev.graphmend.ir.document.UniIR;
import dev.graphmend.ir.document.TextChange;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Edit-to-updated-tree latency of the incremental document model on one large file (issue 3's
 * benchmark: _pydecimal.py, ~6,400 lines), beside the time of a full build of the same file, and
 * the heap an open document retains.
 *
 * <p>Workload: at 300 random code lines inside function bodies, type a new statement one
 * character per edit ("total = value + 1" on a new line, as an editor sends keystrokes), then
 * delete it one character per edit. Intermediate states are sometimes invalid (`total =`), as
 * real typing is. Usage: EditBench FILE [OUT]
 */
public final class EditBench {
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        String text = Files.readString(file);
        int lines = text.split("\n", -1).length;

        // full build, warm
        for (int i = 0; i < 15; i++) PythonDocument.open(text, 0);
        long[] full = new long[21];
        for (int i = 0; i < full.length; i++) {
            long t0 = System.nanoTime();
            PythonDocument.open(text, 0);
            full[i] = System.nanoTime() - t0;
        }
        Arrays.sort(full);

        // typing workload (one warm-up round, then the measured one)
        String[] lineTexts = text.split("\n", -1);
        List<Integer> sites = new ArrayList<>();
        for (int i = 0; i < lineTexts.length; i++) {
            String l = lineTexts[i];
            if (l.startsWith("        ") && !l.isBlank() && !l.strip().startsWith("#") && l.strip().length() > 3
                    && !l.strip().endsWith(",") && !l.strip().endsWith("(") && !l.strip().endsWith("\\")
                    && !l.contains("\"\"\"") && !l.contains("'''")) {
                sites.add(i);
            }
        }
        long[] lat = null;
        long[] irLat = null;
        Map<PythonDocument.Update, Integer> paths = null;
        for (int round = 0; round < 2; round++) {
            Random rnd = new Random(42 + round);
            List<Long> times = new ArrayList<>();
            List<Long> irTimes = new ArrayList<>();
            paths = new EnumMap<>(PythonDocument.Update.class);
            PythonDocument doc = PythonDocument.open(text, 0);
            UniIR[] ir = {UniIR.of(doc)};
            for (int s = 0; s < 300; s++) {
                int line = sites.get(rnd.nextInt(sites.size()));
                String l = doc.text().split("\n", -1)[line];
                String indent = l.substring(0, l.length() - l.stripLeading().length());
                String typed = "\n" + indent + "total = value + 1";
                int col = l.length();
                // the newline and the indentation arrive as one edit, as editors auto-indent
                int[] cuts = new int[typed.length() - indent.length()];
                int k = 0;
                cuts[k++] = 1 + indent.length();
                for (int c = 1 + indent.length() + 1; c <= typed.length(); c++) cuts[k++] = c;
                int prev = 0;
                for (int cut : cuts) {
                    String piece = typed.substring(prev, cut);
                    int[] pos = positionAfter(line, col, typed.substring(0, prev));
                    TextChange change = TextChange.replace(pos[0], pos[1], pos[0], pos[1], piece);
                    long t0 = System.nanoTime();
                    doc = doc.apply(change, doc.version() + 1);
                    times.add(System.nanoTime() - t0);
                    irTimes.add(updateIr(ir, doc) + times.get(times.size() - 1));
                    paths.merge(doc.lastUpdate(), 1, Integer::sum);
                    prev = cut;
                }
                // backspace it all, one character at a time (the indentation and newline last, at once)
                for (int c = typed.length(); c > 1 + indent.length(); c--) {
                    int[] end = positionAfter(line, col, typed.substring(0, c));
                    int[] start = positionAfter(line, col, typed.substring(0, c - 1));
                    long t0 = System.nanoTime();
                    doc = doc.apply(TextChange.replace(start[0], start[1], end[0], end[1], ""), doc.version() + 1);
                    times.add(System.nanoTime() - t0);
                    irTimes.add(updateIr(ir, doc) + times.get(times.size() - 1));
                    paths.merge(doc.lastUpdate(), 1, Integer::sum);
                }
                int[] end = positionAfter(line, col, typed.substring(0, 1 + indent.length()));
                long t0 = System.nanoTime();
                doc = doc.apply(TextChange.replace(line, col, end[0], end[1], ""), doc.version() + 1);
                times.add(System.nanoTime() - t0);
                irTimes.add(updateIr(ir, doc) + times.get(times.size() - 1));
                paths.merge(doc.lastUpdate(), 1, Integer::sum);
            }
            if (!doc.text().equals(text)) throw new IllegalStateException("workload did not restore the text");
            lat = times.stream().mapToLong(Long::longValue).sorted().toArray();
            irLat = irTimes.stream().mapToLong(Long::longValue).sorted().toArray();
        }

        // retained heap per open document
        Runtime rt = Runtime.getRuntime();
        long before = usedAfterGc(rt);
        List<PythonDocument> open = new ArrayList<>();
        for (int i = 0; i < 20; i++) open.add(PythonDocument.open(text, i));
        long after = usedAfterGc(rt);
        long perDoc = (after - before) / open.size();

        StringBuilder out = new StringBuilder();
        out.append(String.format("file: %s (%,d lines, %,d chars)%n", file, lines, text.length()));
        out.append(String.format("JVM: %s %s, %d CPUs%n", System.getProperty("java.vm.name"), System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors()));
        out.append(String.format("full build (PythonDocument.open, warm): median %.2f ms, min %.2f ms, max %.2f ms%n",
                ms(full[full.length / 2]), ms(full[0]), ms(full[full.length - 1])));
        out.append(String.format("edits: %,d (typing and deleting a statement at 300 sites); paths %s%n", lat.length, paths));
        out.append(String.format("edit -> updated tree: p50 %.3f ms, p90 %.3f ms, p95 %.3f ms, p99 %.3f ms, max %.3f ms%n",
                ms(pct(lat, 50)), ms(pct(lat, 90)), ms(pct(lat, 95)), ms(pct(lat, 99)), ms(lat[lat.length - 1])));
        out.append(String.format("edit -> updated UniIR (tree + symbol tables + every function's CFG, graphs of untouched"
                + " functions reused): p50 %.3f ms, p95 %.3f ms, p99 %.3f ms%n", ms(pct(irLat, 50)), ms(pct(irLat, 95)), ms(pct(irLat, 99))));
        out.append(String.format("retained heap per open document: %,d KiB (20 documents, after GC)%n", perDoc / 1024));
        System.out.print(out);
        if (args.length > 1) Files.writeString(Path.of(args[1]), out.toString());
        open.clear();
    }

    /** Brings the UniIR to {@code doc} and builds everything in it; returns the nanoseconds taken. */
    static long updateIr(UniIR[] ir, PythonDocument doc) {
        long t0 = System.nanoTime();
        ir[0] = ir[0].next(doc);
        ir[0].symbols();
        ir[0].cfg(doc.module());
        for (Stmt s : doc.module().body()) visit(ir[0], s);
        return System.nanoTime() - t0;
    }

    private static void visit(UniIR ir, Stmt s) {
        if (s instanceof Stmt.FunctionDef || s instanceof Stmt.AsyncFunctionDef) {
            ir.cfg(s);
        } else if (s instanceof Stmt.ClassDef c) {
            ir.cfg(c);
            for (Stmt m : c.body()) visit(ir, m);
        }
    }

    /** The LSP position reached after inserting {@code typed} at (line, col). */
    static int[] positionAfter(int line, int col, String typed) {
        int nl = typed.lastIndexOf('\n');
        if (nl < 0) return new int[] {line, col + typed.length()};
        int breaks = (int) typed.chars().filter(c -> c == '\n').count();
        return new int[] {line + breaks, typed.length() - nl - 1};
    }

    static long pct(long[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    static double ms(long ns) {
        return ns / 1e6;
    }

    static long usedAfterGc(Runtime rt) throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return rt.totalMemory() - rt.freeMemory();
    }

    static { ManagementFactory.getRuntimeMXBean(); }
}
