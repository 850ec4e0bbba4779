package dev.graphmend.bench;

import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.PythonSourceParser;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Our side of the parse benchmark (run by {@code bench/parse-bench.sh}).
 *
 * <p>Loads every file of the list into memory, then on this one thread, with one reused
 * {@link PythonSourceParser}, runs {@code --warmup} passes (the first one in a cold JVM is
 * reported on its own) and {@code --passes} measured passes over all files, and prints a table
 * next to CPython's figures read from {@code --cpython} (the key=value output of
 * {@code cpython_parse.py}). The table also goes to {@code --out}.
 */
public final class ParseBench {
    private record Source(String path, byte[] bytes, int lines) {}

    private static long sink; // keeps the parse results observable

    public static void main(String[] args) throws Exception {
        Map<String, String> opt = options(args);
        Path fileList = Path.of(require(opt, "files"));
        int warmup = Integer.parseInt(opt.getOrDefault("warmup", "3"));
        int passes = Integer.parseInt(opt.getOrDefault("passes", "5"));
        if (warmup < 1 || passes < 1) throw new IllegalArgumentException("need --warmup >= 1 and --passes >= 1");

        List<Source> sources = load(fileList);
        long lines = sources.stream().mapToLong(Source::lines).sum();
        long bytes = sources.stream().mapToLong(s -> s.bytes().length).sum();

        PythonSourceParser parser = new PythonSourceParser();
        double[] warm = new double[warmup];
        int filesWithErrors = 0;
        List<String> errorExamples = new ArrayList<>();
        for (int i = 0; i < warmup; i++) {
            long t0 = System.nanoTime();
            for (Source s : sources) {
                ParseResult r = parser.parse(s.bytes());
                sink += r.module().body().size();
                if (i == 0 && r.hasErrors()) {
                    filesWithErrors++;
                    if (errorExamples.size() < 5) errorExamples.add(s.path() + ": " + r.errors().get(0));
                }
            }
            warm[i] = seconds(System.nanoTime() - t0);
            System.err.printf(Locale.ROOT, "ours: warm-up pass %d: %.3f s%n", i + 1, warm[i]);
        }
        long gcCount0 = gcCount(), gcMillis0 = gcMillis();
        double[] measured = new double[passes];
        for (int i = 0; i < passes; i++) {
            long t0 = System.nanoTime();
            for (Source s : sources) sink += parser.parse(s.bytes()).module().body().size();
            measured[i] = seconds(System.nanoTime() - t0);
            System.err.printf(Locale.ROOT, "ours: measured pass %d: %.3f s%n", i + 1, measured[i]);
        }
        long gcCount = gcCount() - gcCount0, gcMillis = gcMillis() - gcMillis0;
        long peakHeap = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) peakHeap += pool.getPeakUsage().getUsed();
        }
        System.gc();
        long retained = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long maxHeap = Runtime.getRuntime().maxMemory();

        Map<String, String> py = opt.containsKey("cpython") ? readKeyValues(Path.of(opt.get("cpython"))) : Map.of();
        String report = report(opt, sources.size(), lines, bytes, warm, measured, gcCount, gcMillis,
                peakHeap, retained, maxHeap, filesWithErrors, errorExamples, py);
        System.out.print(report);
        if (opt.containsKey("out")) {
            Path out = Path.of(opt.get("out"));
            if (out.getParent() != null) Files.createDirectories(out.getParent());
            Files.writeString(out, report, StandardCharsets.UTF_8);
            System.out.println("written to " + out);
        }
        if (sink == 42) System.out.println(); // never true in practice; defeats dead-code elimination
    }

    private static String report(Map<String, String> opt, int files, long lines, long bytes, double[] warm,
            double[] measured, long gcCount, long gcMillis, long peakHeap, long retained, long maxHeap,
            int filesWithErrors, List<String> errorExamples, Map<String, String> py) {
        StringBuilder b = new StringBuilder();
        double ours = median(measured);
        b.append("GraphMend parse benchmark, ").append(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"))).append('\n');
        b.append(String.format(Locale.ROOT, "files:  %,d .py files under %s that CPython %s accepts%n", files,
                opt.getOrDefault("root", "?"), py.getOrDefault("python", "?")));
        b.append("        (skipped: site-packages/ and every test/, tests/, idle_test/ folder; ")
         .append(opt.getOrDefault("rejected", "?")).append(" files rejected by CPython; list in ")
         .append(opt.get("files")).append(")\n");
        b.append(String.format(Locale.ROOT, "lines:  %,d physical lines, %,d bytes, all loaded into memory before timing%n", lines, bytes));
        b.append("JVM:    ").append(System.getProperty("java.vm.name")).append(' ').append(System.getProperty("java.runtime.version"))
         .append(", ").append(Runtime.getRuntime().availableProcessors()).append(" CPUs, args ")
         .append(ManagementFactory.getRuntimeMXBean().getInputArguments()).append('\n');
        b.append("method: one thread, one reused PythonSourceParser; CPython: ast.parse(bytes, path), gc on\n\n");

        String[] pyPasses = py.getOrDefault("passes_s", "").isEmpty() ? new String[0] : py.get("passes_s").split(",");
        double pyMedian = py.containsKey("median_s") ? Double.parseDouble(py.get("median_s")) : Double.NaN;
        long pyLines = py.containsKey("lines") ? Long.parseLong(py.get("lines")) : -1;
        long pyFiles = py.containsKey("files") ? Long.parseLong(py.get("files")) : -1;

        String row = "%-34s %20s %20s%n";
        b.append(String.format(Locale.ROOT, row, "", "ours (warm JVM)", "CPython ast.parse"));
        b.append(String.format(Locale.ROOT, row, "files", fmt(files), pyFiles < 0 ? "?" : fmt(pyFiles)));
        b.append(String.format(Locale.ROOT, row, "lines", fmt(lines), pyLines < 0 ? "?" : fmt(pyLines)));
        b.append(String.format(Locale.ROOT, row, "warm-up passes", String.valueOf(warm.length),
                py.getOrDefault("warmup_s", "").isEmpty() ? "0" : String.valueOf(py.get("warmup_s").split(",").length)));
        b.append(String.format(Locale.ROOT, row, "measured passes", String.valueOf(measured.length), String.valueOf(pyPasses.length)));
        b.append(String.format(Locale.ROOT, row, "median s/pass", sec(ours), sec(pyMedian)));
        b.append(String.format(Locale.ROOT, row, "min / max s/pass",
                sec(min(measured)) + " / " + sec(max(measured)),
                pyPasses.length == 0 ? "?" : sec(min(parse(pyPasses))) + " / " + sec(max(parse(pyPasses)))));
        b.append(String.format(Locale.ROOT, row, "lines/s (median pass)", fmt(Math.round(lines / ours)),
                Double.isNaN(pyMedian) ? "?" : fmt(Math.round(pyLines / pyMedian))));
        if (!Double.isNaN(pyMedian)) {
            b.append(String.format(Locale.ROOT, row, "ratio ours/CPython, time per pass", String.format(Locale.ROOT, "%.3f", ours / pyMedian), ""));
            b.append(String.format(Locale.ROOT, row, "ratio ours/CPython, lines/s", String.format(Locale.ROOT, "%.2fx", pyMedian / ours), ""));
        }
        b.append(String.format(Locale.ROOT, row, "first pass, cold JVM: s", sec(warm[0]), ""));
        b.append(String.format(Locale.ROOT, row, "first pass, cold JVM: lines/s", fmt(Math.round(lines / warm[0])), ""));
        b.append(String.format(Locale.ROOT, row, "peak heap (sum of pool peaks)", mib(peakHeap), ""));
        b.append(String.format(Locale.ROOT, row, "heap after the run and a full GC", mib(retained), ""));
        b.append(String.format(Locale.ROOT, row, "max heap", mib(maxHeap), ""));
        b.append(String.format(Locale.ROOT, row, "GCs during measured passes", gcCount + " (" + gcMillis + " ms)", ""));
        b.append(String.format(Locale.ROOT, row, "files with syntax errors (ours)", String.valueOf(filesWithErrors), "0"));
        b.append('\n');
        b.append("ours, all passes (s):    warm-up ").append(join(warm)).append(" | measured ").append(join(measured)).append('\n');
        b.append("CPython, all passes (s): warm-up ").append(py.getOrDefault("warmup_s", "?").replace(",", " "))
         .append(" | measured ").append(String.join(" ", pyPasses)).append('\n');
        if (filesWithErrors > 0) {
            b.append("NOTE: our parser reported syntax errors on files CPython accepts, e.g.:\n");
            for (String e : errorExamples) b.append("  ").append(e).append('\n');
        }
        if (pyLines >= 0 && pyLines != lines) b.append("WARNING: line counts differ between the two sides\n");
        return b.toString();
    }

    private static List<Source> load(Path list) throws IOException {
        List<Source> out = new ArrayList<>();
        for (String row : Files.readAllLines(list, StandardCharsets.UTF_8)) {
            if (row.isBlank()) continue;
            String[] f = row.split("\t", 3);
            out.add(new Source(f[2], Files.readAllBytes(Path.of(f[2])), Integer.parseInt(f[0])));
        }
        if (out.isEmpty()) throw new IllegalStateException("no files in " + list);
        return out;
    }

    private static Map<String, String> readKeyValues(Path path) throws IOException {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : Files.readAllLines(path, StandardCharsets.UTF_8)) {
            int eq = line.indexOf('=');
            if (eq > 0) m.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
        }
        return m;
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) throw new IllegalArgumentException("bad argument " + args[i]);
            m.put(args[i].substring(2), args[++i]);
        }
        return m;
    }

    private static String require(Map<String, String> opt, String key) {
        String v = opt.get(key);
        if (v == null) throw new IllegalArgumentException("missing --" + key);
        return v;
    }

    private static long gcCount() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) n += Math.max(0, gc.getCollectionCount());
        return n;
    }

    private static long gcMillis() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) n += Math.max(0, gc.getCollectionTime());
        return n;
    }

    private static double seconds(long nanos) { return nanos / 1e9; }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    private static double min(double[] xs) { return Arrays.stream(xs).min().orElse(Double.NaN); }

    private static double max(double[] xs) { return Arrays.stream(xs).max().orElse(Double.NaN); }

    private static double[] parse(String[] xs) { return Arrays.stream(xs).mapToDouble(Double::parseDouble).toArray(); }

    private static String sec(double s) { return Double.isNaN(s) ? "?" : String.format(Locale.ROOT, "%.3f", s); }

    private static String fmt(long n) { return String.format(Locale.ROOT, "%,d", n); }

    private static String mib(long bytes) { return String.format(Locale.ROOT, "%,.0f MiB", bytes / 1048576.0); }

    private static String join(double[] xs) {
        StringBuilder b = new StringBuilder();
        for (double x : xs) b.append(b.length() == 0 ? "" : " ").append(sec(x));
        return b.toString();
    }
}
