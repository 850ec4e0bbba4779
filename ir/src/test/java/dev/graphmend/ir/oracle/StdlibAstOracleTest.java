package dev.graphmend.ir.oracle;

import static org.junit.jupiter.api.Assertions.fail;

import dev.graphmend.ir.dump.GmAstDump;
import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.PythonSourceParser;
import dev.graphmend.ir.parse.SyntaxError;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * The parser's check against CPython (docs/gm-ast-v1.md): every standard library that pyenv holds
 * (without {@code site-packages}), dumped by {@code tools/gm_ast_dump.py} under the reference
 * CPython 3.13 and by our parser in-process, compared file by file.
 *
 * <p>Per library it asserts: no false syntax error (we reject a file CPython accepts), no parser
 * exception, and at least 99.5% of the files agree, where a file agrees when both dumps are equal
 * or both sides reject it. Files CPython rejects while we accept them count as disagreeing. The
 * summary is printed and written to {@code ir/target/oracle/stdlib-<version>.txt}.
 *
 * <p>The reference CPython 3.13 and the 3.8-3.12 standard libraries (the versions the grammar
 * supports) are required; older 3.x ones are checked when present. When any is missing the test
 * fails, unless {@code GRAPHMEND_ALLOW_MISSING_ORACLE=1}, which turns it into an aborted (skipped)
 * test with a loud message, never a pass.
 */
@Tag("oracle")
class StdlibAstOracleTest {
    static final String REFERENCE_SERIES = "3.13";
    static final List<String> REQUIRED_OLDER = List.of("3.8", "3.9", "3.10", "3.11", "3.12");
    static final double MIN_AGREEING = 0.995;
    static final int THREADS = 2;
    static final int SHOWN = 30;
    static final long TIMEOUT_MINUTES = 30;
    private static final Pattern VERSION_DIR = Pattern.compile("3\\.(\\d+)\\.(\\d+)");

    /** An installed CPython: its version directory name (3.13.0) and series (3.13). */
    record Installed(String version, String series, Path home) {
        Path python() { return home.resolve("bin/python3"); }
        Path stdlib() { return home.resolve("lib/python" + series); }
    }

    @TestFactory
    Stream<DynamicTest> stdlibDumpsMatchCPython() throws IOException {
        Path repo = repoRoot();
        Map<String, Installed> bySeries = installedPythons();
        bySeries.values().removeIf(i -> !Files.isDirectory(i.stdlib()));
        Installed reference = bySeries.get(REFERENCE_SERIES);
        boolean referenceOk = reference != null && Files.isExecutable(reference.python());
        Path dumper = repo.resolve("tools/gm_ast_dump.py");
        Path outDir = repo.resolve("ir/target/oracle");
        Files.createDirectories(outDir);

        // One test per library, newest first: every required one, and every other 3.x present.
        TreeMap<Integer, String> series = new TreeMap<>(Comparator.reverseOrder());
        for (String s : concat(List.of(REFERENCE_SERIES), REQUIRED_OLDER)) series.put(minor(s), s);
        for (String s : bySeries.keySet()) series.put(minor(s), s);
        List<DynamicTest> tests = new ArrayList<>();
        for (String s : series.values()) {
            Installed lib = bySeries.get(s);
            if (!referenceOk) {
                tests.add(DynamicTest.dynamicTest("stdlib " + s, () -> missing(
                        "the reference CPython " + REFERENCE_SERIES + " (" + pyenvRoot() + "/versions/"
                        + REFERENCE_SERIES + ".*/bin/python3) is missing, so the " + s + " standard library cannot be checked")));
            } else if (lib == null) {
                tests.add(DynamicTest.dynamicTest("stdlib " + s, () -> missing(
                        "CPython " + s + " (its standard library " + pyenvRoot() + "/versions/" + s
                        + ".*/lib/python" + s + ") is missing")));
            } else {
                tests.add(DynamicTest.dynamicTest("stdlib " + lib.version(),
                        () -> checkStdlib(lib, reference, dumper, outDir)));
            }
        }
        return tests.stream();
    }

    /** A required CPython is absent: fail, or with GRAPHMEND_ALLOW_MISSING_ORACLE=1 abort (skipped). */
    static void missing(String what) {
        OracleRequirements.notRun("AST oracle (the parser against CPython's ast, stdlib 3.8-3.13)", what, OracleRequirements.HOW_PYENV);
    }

    // ---------------------------------------------------------------------------------------

    enum Kind { IDENTICAL, BOTH_REJECT, DIFFERING, FALSE_SYNTAX_ERROR, MISSED_REJECTION, CRASH, UNREADABLE }

    record Outcome(int index, String path, Kind kind, String detail) {}

    static void checkStdlib(Installed lib, Installed reference, Path dumper, Path outDir) throws Exception {
        Path stdlib = lib.stdlib();
        List<String> args = new ArrayList<>(List.of(reference.python().toString(), "-X", "utf8", dumper.toString()));
        try (Stream<Path> top = Files.list(stdlib)) {
            top.filter(p -> Files.isDirectory(p)
                            ? !p.getFileName().toString().equals("site-packages")
                            : p.getFileName().toString().endsWith(".py"))
               .map(Path::toString).sorted().forEach(args::add);
        }
        ProcessBuilder pb = new ProcessBuilder(args);
        pb.environment().put("PYTHONIOENCODING", "utf-8:surrogateescape");
        Path stderrFile = outDir.resolve("stdlib-" + lib.version() + ".cpython-stderr.txt");
        pb.redirectError(stderrFile.toFile());
        long start = System.nanoTime();
        Process proc = pb.start();
        proc.getOutputStream().close();

        List<Outcome> outcomes = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicLong ourNanos = new AtomicLong();
        AtomicLong lines = new AtomicLong();
        ThreadLocal<PythonSourceParser> parser = ThreadLocal.withInitial(PythonSourceParser::new);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS, bigStacks());
        Semaphore inFlight = new Semaphore(64);
        int count = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8), 1 << 16)) {
            String path = null;
            StringBuilder section = new StringBuilder();
            for (String line = in.readLine(); ; line = in.readLine()) {
                if (line == null || line.startsWith("== ")) {
                    if (path != null) {
                        String p = path;
                        String cpython = section.toString();
                        int index = count++;
                        inFlight.acquire();
                        pool.execute(() -> {
                            try {
                                outcomes.add(compare(index, p, cpython, stdlib, parser.get(), ourNanos, lines));
                            } catch (Throwable t) {
                                outcomes.add(new Outcome(index, p, Kind.CRASH, t.toString()));
                            } finally {
                                inFlight.release();
                            }
                        });
                    }
                    if (line == null) break;
                    path = line.substring(3);
                    section.setLength(0);
                } else {
                    section.append(line).append('\n');
                }
            }
        } finally {
            pool.shutdown();
        }
        boolean exited = proc.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES);
        double cpythonSeconds = (System.nanoTime() - start) / 1e9;
        if (!pool.awaitTermination(TIMEOUT_MINUTES, TimeUnit.MINUTES) || !exited) {
            pool.shutdownNow();
            proc.destroyForcibly();
            fail("stdlib " + lib.version() + ": timed out after " + TIMEOUT_MINUTES + " minutes");
        }
        if (proc.exitValue() != 0) {
            fail("tools/gm_ast_dump.py under " + reference.python() + " exited " + proc.exitValue()
                    + " on " + stdlib + ":\n" + tailOf(stderrFile));
        }
        if (Files.size(stderrFile) == 0) Files.delete(stderrFile);
        if (count == 0) fail("tools/gm_ast_dump.py printed no file for " + stdlib);

        List<Outcome> sorted = new ArrayList<>(outcomes);
        sorted.sort(Comparator.comparingInt(Outcome::index));
        Map<Kind, List<Outcome>> byKind = new TreeMap<>();
        for (Kind k : Kind.values()) byKind.put(k, new ArrayList<>());
        for (Outcome o : sorted) byKind.get(o.kind()).add(o);
        int files = sorted.size();
        int agreeing = byKind.get(Kind.IDENTICAL).size() + byKind.get(Kind.BOTH_REJECT).size();
        double share = files == 0 ? 0 : (double) agreeing / files;
        double ourSeconds = ourNanos.get() / 1e9;

        StringBuilder s = new StringBuilder();
        s.append(String.format("stdlib %s (%s), reference CPython %s (tools/gm_ast_dump.py)%n",
                lib.version(), stdlib, reference.version()));
        s.append(String.format("files:                  %d (%d lines)%n", files, lines.get()));
        s.append(String.format("agreeing:               %d (%.3f%%; need >= %.1f%%)%n", agreeing, 100 * share, 100 * MIN_AGREEING));
        s.append(String.format("  identical dumps:      %d%n", byKind.get(Kind.IDENTICAL).size()));
        s.append(String.format("  both reject:          %d%n", byKind.get(Kind.BOTH_REJECT).size()));
        s.append(String.format("differing:              %d%n", byKind.get(Kind.DIFFERING).size()));
        s.append(String.format("false syntax errors:    %d (we reject, CPython accepts; need 0)%n", byKind.get(Kind.FALSE_SYNTAX_ERROR).size()));
        s.append(String.format("missed rejections:      %d (CPython rejects, we accept)%n", byKind.get(Kind.MISSED_REJECTION).size()));
        s.append(String.format("parser exceptions:      %d (need 0)%n", byKind.get(Kind.CRASH).size()));
        s.append(String.format("unreadable files:       %d%n", byKind.get(Kind.UNREADABLE).size()));
        s.append(String.format("time: CPython dumper %.1fs wall; our parser %.1fs summed over %d threads (%.0f lines/s per thread)%n",
                cpythonSeconds, ourSeconds, THREADS, ourSeconds > 0 ? lines.get() / ourSeconds : 0.0));
        section(s, "differing (first differing line of the dump; ours vs CPython)", byKind.get(Kind.DIFFERING), stdlib);
        section(s, "false syntax errors (our first error)", byKind.get(Kind.FALSE_SYNTAX_ERROR), stdlib);
        section(s, "missed rejections (CPython's error)", byKind.get(Kind.MISSED_REJECTION), stdlib);
        section(s, "parser exceptions", byKind.get(Kind.CRASH), stdlib);
        section(s, "unreadable files", byKind.get(Kind.UNREADABLE), stdlib);
        String summary = s.toString();
        Files.writeString(outDir.resolve("stdlib-" + lib.version() + ".txt"), summary, StandardCharsets.UTF_8);
        System.out.println(summary);

        List<String> problems = new ArrayList<>();
        if (!byKind.get(Kind.FALSE_SYNTAX_ERROR).isEmpty()) {
            problems.add(byKind.get(Kind.FALSE_SYNTAX_ERROR).size() + " false syntax errors");
        }
        if (!byKind.get(Kind.CRASH).isEmpty()) problems.add(byKind.get(Kind.CRASH).size() + " parser exceptions");
        if (!byKind.get(Kind.UNREADABLE).isEmpty()) problems.add(byKind.get(Kind.UNREADABLE).size() + " unreadable files");
        if (share < MIN_AGREEING) {
            problems.add(String.format("only %.3f%% of files agree (need %.1f%%)", 100 * share, 100 * MIN_AGREEING));
        }
        if (!problems.isEmpty()) {
            int listStart = summary.indexOf("\n\n");
            String head = listStart < 0 ? summary : summary.substring(0, listStart + 1);
            fail("stdlib " + lib.version() + ": " + String.join("; ", problems) + "\n" + head
                    + "(full summary above and in " + outDir.resolve("stdlib-" + lib.version() + ".txt") + ")");
        }
    }

    static Outcome compare(int index, String path, String cpython, Path stdlib, PythonSourceParser parser,
                           AtomicLong ourNanos, AtomicLong lines) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(Paths.get(path));
        } catch (IOException e) {
            return new Outcome(index, path, Kind.UNREADABLE, e.toString());
        }
        long t0 = System.nanoTime();
        ParseResult result;
        try {
            result = parser.parse(bytes);
        } catch (RuntimeException | StackOverflowError e) {
            return new Outcome(index, path, Kind.CRASH, e.toString());
        } finally {
            ourNanos.addAndGet(System.nanoTime() - t0);
        }
        lines.addAndGet(countLines(bytes));
        boolean cpythonRejects = cpython.startsWith("! syntax error ");
        if (cpythonRejects) {
            if (result.hasErrors()) return new Outcome(index, path, Kind.BOTH_REJECT, null);
            return new Outcome(index, path, Kind.MISSED_REJECTION, firstLine(cpython));
        }
        if (result.hasErrors()) {
            SyntaxError e = result.errors().get(0);
            return new Outcome(index, path, Kind.FALSE_SYNTAX_ERROR, e.line() + ":" + e.column() + " " + e.message()
                    + (result.errors().size() > 1 ? " (+" + (result.errors().size() - 1) + " more)" : ""));
        }
        String ours = GmAstDump.dump(result.module());
        if (ours.equals(cpython)) return new Outcome(index, path, Kind.IDENTICAL, null);
        return new Outcome(index, path, Kind.DIFFERING, firstDifference(ours, cpython));
    }

    static String firstDifference(String ours, String cpython) {
        String[] a = ours.split("\n", -1);
        String[] b = cpython.split("\n", -1);
        int n = Math.min(a.length, b.length);
        int i = 0;
        while (i < n && a[i].equals(b[i])) i++;
        String o = i < a.length && !(i == a.length - 1 && a[i].isEmpty()) ? a[i] : "<end of dump>";
        String c = i < b.length && !(i == b.length - 1 && b[i].isEmpty()) ? b[i] : "<end of dump>";
        return "line " + (i + 1) + "\n      ours:    " + o + "\n      CPython: " + c;
    }

    private static void section(StringBuilder s, String title, List<Outcome> rows, Path stdlib) {
        if (rows.isEmpty()) return;
        s.append('\n').append(title).append(", ").append(Math.min(SHOWN, rows.size())).append(" of ").append(rows.size()).append(":\n");
        for (Outcome o : rows.subList(0, Math.min(SHOWN, rows.size()))) {
            String rel = o.path().startsWith(stdlib + "/") ? o.path().substring(stdlib.toString().length() + 1) : o.path();
            s.append("  ").append(rel);
            if (o.detail() != null) s.append(": ").append(o.detail());
            s.append('\n');
        }
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private static long countLines(byte[] b) {
        long n = 0;
        for (byte x : b) if (x == '\n') n++;
        return n;
    }

    private static String tailOf(Path file) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - 20), all.size()));
        } catch (IOException e) {
            return "(no stderr: " + e + ")";
        }
    }

    private static ThreadFactory bigStacks() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(null, r, "oracle-" + n.incrementAndGet(), 64L << 20);
            t.setDaemon(true);
            return t;
        };
    }

    // ---------------------------------------------------------------------------------------

    /** The repository root: the nearest folder above the working directory with tools/gm_ast_dump.py. */
    static Path repoRoot() {
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("tools/gm_ast_dump.py"))) return p;
        }
        fail("cannot find tools/gm_ast_dump.py above " + Paths.get("").toAbsolutePath());
        return null;
    }

    static Path pyenvRoot() {
        String env = System.getenv("PYENV_ROOT");
        return env != null && !env.isBlank() ? Paths.get(env) : Paths.get(System.getProperty("user.home"), ".pyenv");
    }

    /** The newest installed patch release of each CPython 3.x series under pyenv. */
    static Map<String, Installed> installedPythons() throws IOException {
        Map<String, Installed> out = new TreeMap<>();
        Path versions = pyenvRoot().resolve("versions");
        if (!Files.isDirectory(versions)) return out;
        try (Stream<Path> dirs = Files.list(versions)) {
            for (Path d : dirs.collect(Collectors.toList())) {
                Matcher m = VERSION_DIR.matcher(d.getFileName().toString());
                if (!m.matches()) continue;
                String series = "3." + m.group(1);
                Installed candidate = new Installed(d.getFileName().toString(), series, d);
                Installed prev = out.get(series);
                if (prev == null || patch(prev.version()) < patch(candidate.version())) out.put(series, candidate);
            }
        }
        return out;
    }

    private static int minor(String series) {
        return Integer.parseInt(series.substring(series.indexOf('.') + 1));
    }

    private static int patch(String version) {
        return Integer.parseInt(version.substring(version.lastIndexOf('.') + 1));
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
