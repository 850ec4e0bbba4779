package dev.graphmend.ir.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Damages CPython-accepted standard library files in many small ways and checks that the parser
 * (1) never throws, (2) always returns a module, (3) takes under a second per input, and (4) keeps
 * damage contained: when the damage lies inside one function's body, every other function that
 * does not enclose it parses to exactly the same gm-ast-v1 dump as in the undamaged file (line
 * numbers moved by the mutation's line delta for the functions after the damage).
 *
 * <p>Inputs are deterministic: files are sampled evenly from the sorted list of stdlib files of
 * 50 to 1500 lines that CPython accepts, and every input is rebuilt from (file, kind, seed); a
 * failure prints them, and {@code -Dgm.mutation.repro=FILE@KIND@SEED} reruns that input alone
 * with details. Sizes: {@code -Dgm.mutation.files} (200) x {@code -Dgm.mutation.perFile} (100).
 * Paths: {@code -Dgm.stdlib} / {@code GM_STDLIB} and {@code -Dgm.python} / {@code GM_PYTHON}.
 * {@code -Dgm.mutation.listed=N} lists N violations (20); {@code -Dgm.mutation.debug=true} prints
 * every input's errors; {@code -Dgm.mutation.cpython=false} skips the report-only cross-check that
 * gives every input to CPython afterwards and compares its verdict and error line with ours.
 * An exception the parser catches itself and reports as "internal parser error" or "too many
 * nested parentheses or blocks" counts as an exception here.
 *
 * <p>The containment property is not checked (but everything else is) for truncations; for
 * damage outside every function body or touching a def line; for mutations that add or remove a
 * quote or a backslash (or cut a line off from its backslash continuation); for damage inside a
 * triple-quoted string (those re-tokenize the rest of the file, for CPython too); and for damage
 * that leaves a statement indented less than the function's body (the damage then no longer lies
 * inside the function: it ends the function and any enclosing class). Each is counted apart.
 * The summary is printed and written to {@code target/mutation-summary.txt}.
 */
@Tag("oracle")
class MutationRobustnessTest {
    private static final long BASE_SEED = 0x6d75746174696f6eL; // "mutation"
    private static final Path STDLIB = Path.of(setting("gm.stdlib", "GM_STDLIB", dev.graphmend.ir.oracle.OracleRequirements.pyenvVersions().resolve("3.13.0/lib/python3.13").toString()));
    private static final String PYTHON = setting("gm.python", "GM_PYTHON", dev.graphmend.ir.oracle.OracleRequirements.pyenvVersions().resolve("3.13.0/bin/python3").toString());
    private static final int FILES = Integer.parseInt(setting("gm.mutation.files", null, "200"));
    private static final int PER_FILE = Integer.parseInt(setting("gm.mutation.perFile", null, "100"));
    private static final int WARMUP_INPUTS = 1000;
    private static final int MAX_LISTED = Integer.parseInt(setting("gm.mutation.listed", null, "20"));
    private static final int MIN_LINES = 50, MAX_LINES = 1500;
    private static final long SLOW_NANOS = 1_000_000_000L;
    private static final long HANG_SECONDS = 120;
    private static final MutationKind[] KINDS = MutationKind.values();

    private static ExecutorService worker;
    private static PythonSourceParser parser; // used only on the worker thread

    @BeforeAll
    static void startWorker() {
        worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "mutation-parse");
            t.setDaemon(true); // a hung parse must not keep the JVM alive
            return t;
        });
    }

    @AfterAll
    static void stopWorker() {
        worker.shutdownNow();
    }

    /** A sampled file with what the undamaged parse gave. */
    private static final class Sample {
        final String name; // path relative to the stdlib folder
        final byte[] bytes;
        final MutationLex lex;
        boolean baselineClean;
        MutationFunctions functions;
        final Map<String, String> dumps = new HashMap<>();

        Sample(String name, byte[] bytes) {
            this.name = name;
            this.bytes = bytes;
            this.lex = new MutationLex(bytes);
        }

        String dump(MutationFunctions.Def def) {
            return dumps.computeIfAbsent(def.key(), k -> def.dump());
        }
    }

    private record Outcome(ParseResult result, long nanos, Throwable thrown) {}

    private record Violation(String file, String function, Mutation mutation, String difference, String damaged) {}

    /** Everything counted while running. */
    private static final class Stats {
        final Map<MutationKind, Integer> inputs = new EnumMap<>(MutationKind.class);
        final Map<MutationKind, Integer> withErrors = new EnumMap<>(MutationKind.class);
        long totalErrors, noErrors;
        long[] nanos = new long[1024];
        int timed;
        long maxNanos = -1;
        String slowest = "";
        final List<String> exceptions = new ArrayList<>();
        final List<String> slow = new ArrayList<>();
        final List<String> nullModules = new ArrayList<>();
        final Map<String, Integer> skipped = new LinkedHashMap<>();
        final Map<String, Integer> excluded = new LinkedHashMap<>();
        long checked, held, functionsCompared;
        final List<Violation> violations = new ArrayList<>();
        long violatedInputs;
        String crossCheck = "";

        Stats() {
            for (String s : List.of("truncation", "damage not inside one function body", "undamaged file had parse errors (ours)"))
                skipped.put(s, 0);
            for (String s : List.of("inside a triple-quoted string", "adds/removes a quote or backslash",
                    "dedents out of the function")) excluded.put(s, 0);
        }

        void time(long n) {
            if (timed == nanos.length) nanos = Arrays.copyOf(nanos, timed * 2);
            nanos[timed++] = n;
        }
    }

    @Test
    void mutatedStdlibFilesNeverBreakTheParserAndDamageStaysInItsFunction() throws Exception {
        // a silent skip here would read as a pass: missing CPython is reported as an oracle not run
        if (!Files.isDirectory(STDLIB)) dev.graphmend.ir.oracle.OracleRequirements.notRun("mutation oracle (damaged stdlib files against CPython 3.13)",
                "no standard library at " + STDLIB, dev.graphmend.ir.oracle.OracleRequirements.HOW_PYENV + " (or -Dgm.stdlib)");
        if (!Files.isExecutable(Path.of(PYTHON))) dev.graphmend.ir.oracle.OracleRequirements.notRun("mutation oracle (damaged stdlib files against CPython 3.13)",
                "no CPython at " + PYTHON, dev.graphmend.ir.oracle.OracleRequirements.HOW_PYENV + " (or -Dgm.python)");
        parser = new PythonSourceParser();
        String repro = System.getProperty("gm.mutation.repro");
        if (repro != null && !repro.isBlank()) {
            reproduce(repro.trim());
            return;
        }

        List<Sample> samples = sampleFiles();
        Stats stats = new Stats();
        long t0 = System.nanoTime();

        // Baseline and warm-up: the undamaged files twice, then WARMUP_INPUTS mutated inputs (not counted).
        for (int pass = 0; pass < 2; pass++) {
            for (Sample s : samples) {
                Outcome o = parseOnWorker(s.bytes, () -> "undamaged " + s.name);
                if (o.thrown != null) {
                    stats.exceptions.add("undamaged file " + s.name + ": " + stackHead(o.thrown));
                    continue;
                }
                if (pass == 0 && o.result != null) {
                    o.result.errors().stream().filter(MutationRobustnessTest::isSwallowedException).findFirst()
                            .ifPresent(e -> stats.exceptions.add("undamaged file " + s.name + ": reported as a syntax error: " + e));
                }
                if (pass == 0 && o.result != null && o.result.module() != null) {
                    s.baselineClean = !o.result.hasErrors();
                    s.functions = new MutationFunctions(o.result.module(), s.lex);
                }
            }
        }
        Stats warmStats = new Stats();
        for (int i = 0; i < WARMUP_INPUTS; i++) {
            Sample s = samples.get(i % samples.size());
            long seed = MutationGenerator.mix(~BASE_SEED + i);
            runInput(s, MutationGenerator.generate(s.bytes, s.lex, KINDS[i % KINDS.length], seed), warmStats, false);
        }
        stats.exceptions.addAll(warmStats.exceptions);
        long tWarm = System.nanoTime();

        int[] ourFirstErrorLine = new int[samples.size() * PER_FILE];
        int index = 0;
        for (Sample s : samples) {
            for (int k = 0; k < PER_FILE; k++, index++) {
                ourFirstErrorLine[index] = runInput(s, mutationAt(s, index), stats, true);
            }
        }
        long tEnd = System.nanoTime();
        if (Boolean.parseBoolean(setting("gm.mutation.cpython", null, "true"))) crossCheck(samples, ourFirstErrorLine, stats);

        String summary = summary(samples, stats, (tWarm - t0) / 1e9, (tEnd - tWarm) / 1e9);
        System.out.print(summary);
        Path out = Path.of(System.getProperty("basedir", "."), "target", "mutation-summary.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, summary, StandardCharsets.UTF_8);

        int total = stats.inputs.values().stream().mapToInt(Integer::intValue).sum();
        assertEquals(List.of(), stats.exceptions, "parse threw");
        assertEquals(List.of(), stats.nullModules, "parse returned no module");
        assertEquals(List.of(), stats.slow, "parses that took 1 s or more");
        assertTrue(stats.violations.isEmpty(), stats.violatedInputs + " containment violations; first: "
                + (stats.violations.isEmpty() ? "" : describe(stats.violations.get(0))));
        assertTrue(total >= 20_000, "only " + total + " inputs");
        assertTrue(stats.checked >= 5_000, "only " + stats.checked + " containment checks were made (need 5,000): "
                + "are the undamaged files parsed without errors? " + stats.skipped);
    }

    // --- one input ---------------------------------------------------------------------------

    /** The input number {@code index} of the run (file {@code index / PER_FILE}). */
    private static Mutation mutationAt(Sample s, int index) {
        long seed = MutationGenerator.mix(BASE_SEED + index);
        return MutationGenerator.generate(s.bytes, s.lex, KINDS[index % KINDS.length], seed);
    }

    /** Runs one input; returns the line of our first syntax error, 0 for none, -1 when the parse failed. */
    private int runInput(Sample s, Mutation m, Stats stats, boolean counted) throws Exception {
        byte[] mutated = m.apply(s.bytes);
        Outcome o = parseOnWorker(mutated, () -> m.reproducer(s.name));
        stats.inputs.merge(m.kind(), 1, Integer::sum);
        if (o.thrown != null) {
            stats.exceptions.add(m.reproducer(s.name) + "\n      " + stackHead(o.thrown));
            return -1;
        }
        if (o.result == null || o.result.module() == null) {
            stats.nullModules.add(m.reproducer(s.name));
            return -1;
        }
        if (counted) {
            stats.time(o.nanos);
            if (o.nanos > stats.maxNanos) {
                stats.maxNanos = o.nanos;
                stats.slowest = m.reproducer(s.name);
            }
            if (o.nanos >= SLOW_NANOS) stats.slow.add(String.format(Locale.ROOT, "%.3f s: %s", o.nanos / 1e9, m.reproducer(s.name)));
        }
        List<SyntaxError> errors = o.result.errors();
        for (SyntaxError e : errors) {
            if (isSwallowedException(e)) {
                stats.exceptions.add(m.reproducer(s.name) + "\n      reported as a syntax error: " + e);
                break;
            }
        }
        if (Boolean.getBoolean("gm.mutation.debug")) System.out.println("DEBUG " + m.reproducer(s.name) + " -> " + errors);
        if (errors.isEmpty()) stats.noErrors++;
        else stats.withErrors.merge(m.kind(), 1, Integer::sum);
        stats.totalErrors += errors.size();
        checkContainment(s, m, mutated, o.result, stats, null);
        return errors.isEmpty() ? 0 : errors.get(0).line();
    }

    /**
     * Report only (no assertion): hands every input to CPython and compares its verdict (accept
     * or reject, and the line of the error) with ours. Runs after the timed loop, so it does not
     * compete with our parses for the CPUs.
     */
    private static void crossCheck(List<Sample> samples, int[] ours, Stats stats) throws Exception {
        String script = String.join("\n",
                "import ast, sys, warnings",
                "warnings.simplefilter('ignore')",
                "inp, out = sys.stdin.buffer, sys.stdout",
                "while True:",
                "    head = inp.read(4)",
                "    if len(head) < 4: break",
                "    data = inp.read(int.from_bytes(head, 'big'))",
                "    try:",
                "        ast.parse(data)",
                "        out.write('0\\n')",
                "    except BaseException as e:",
                "        out.write('%d\\n' % (getattr(e, 'lineno', None) or -1))",
                "out.flush()");
        Process proc = new ProcessBuilder(PYTHON, "-c", script).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        Thread writer = new Thread(() -> {
            try (java.io.DataOutputStream os = new java.io.DataOutputStream(new java.io.BufferedOutputStream(proc.getOutputStream(), 1 << 16))) {
                int index = 0;
                for (Sample s : samples) {
                    for (int k = 0; k < PER_FILE; k++, index++) {
                        byte[] mutated = mutationAt(s, index).apply(s.bytes);
                        os.writeInt(mutated.length);
                        os.write(mutated);
                    }
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "cpython-feed");
        writer.setDaemon(true);
        writer.start();
        List<String> verdicts;
        try (java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(proc.getInputStream(), StandardCharsets.US_ASCII))) {
            verdicts = r.lines().toList();
        }
        writer.join();
        proc.waitFor();
        if (verdicts.size() != ours.length) {
            stats.crossCheck = "CPython cross-check failed: " + verdicts.size() + " answers for " + ours.length + " inputs";
            return;
        }
        int bothAccept = 0, bothReject = 0, sameLine = 0, cpythonLine = 0, missed = 0, spurious = 0;
        List<String> examples = new ArrayList<>();
        for (int i = 0; i < ours.length; i++) {
            int py = Integer.parseInt(verdicts.get(i).trim());
            if (ours[i] < 0) continue; // failed parses are reported elsewhere
            Sample s = samples.get(i / PER_FILE);
            if (py == 0 && ours[i] == 0) {
                bothAccept++;
            } else if (py != 0 && ours[i] != 0) {
                bothReject++;
                if (py > 0) {
                    cpythonLine++;
                    if (py == ours[i]) sameLine++;
                }
            } else if (py != 0) {
                missed++;
                if (examples.size() < 10) examples.add("no error from us, CPython: line " + py + ": " + mutationAt(s, i).reproducer(s.name));
            } else {
                spurious++;
                if (examples.size() < 10) examples.add("error from us (line " + ours[i] + "), CPython accepts: " + mutationAt(s, i).reproducer(s.name));
            }
        }
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "CPython cross-check of every input (report only): both accept %d, both reject %d "
                + "(same first-error line in %d of the %d where CPython gives a line), we accept but CPython rejects %d, "
                + "we reject but CPython accepts %d%n", bothAccept, bothReject, sameLine, cpythonLine, missed, spurious));
        for (String e : examples) b.append("  ").append(e).append('\n');
        stats.crossCheck = b.toString();
    }

    /**
     * Applies the containment property to one input and counts the outcome. With {@code log}
     * non-null it also writes why it did or did not apply and every differing function.
     */
    private void checkContainment(Sample s, Mutation m, byte[] mutated, ParseResult result, Stats stats, StringBuilder log) {
        if (m.kind() == MutationKind.TRUNCATE) {
            skip(stats, "truncation", log);
            return;
        }
        if (!s.baselineClean || s.functions == null) {
            skip(stats, "undamaged file had parse errors (ours)", log);
            return;
        }
        MutationLex lex = s.lex;
        int a = m.start(), b = m.end();
        int[] changed = changedPositions(s.bytes, m);
        int first = lex.lineOf(a);
        int last = b > a ? lex.lineOf(b - 1) : first;
        if (m.kind() == MutationKind.FLIP_BYTES) {
            for (int p : changed) if (lex.isLineBreakByte(p)) last = Math.max(last, lex.lineOf(p) + 1); // joins lines
        }
        MutationFunctions.Def damaged = s.functions.innermostFunctionHolding(first, last);
        if (damaged == null) {
            skip(stats, "damage not inside one function body", log);
            return;
        }
        MutationLex afterLex = new MutationLex(mutated);
        String why = exclusion(s, m, changed, afterLex, damaged, first);
        if (why != null) {
            stats.excluded.merge(why, 1, Integer::sum);
            if (log != null) log.append("containment: excluded (").append(why).append("), damaged function ").append(damaged.key()).append('\n');
            return;
        }
        int delta = afterLex.lineBreaks - lex.lineBreaks;
        MutationFunctions after = new MutationFunctions(result.module(), null);
        int compared = 0, differing = 0;
        for (MutationFunctions.Def f : s.functions.functions) {
            if (f == damaged || f.encloses(damaged) || damaged.encloses(f)) continue;
            int shift;
            if (f.extentStart() > last) shift = delta;
            else if (f.endLine() < first) shift = 0;
            else continue; // overlaps the damage (cannot happen for a function outside the damaged one)
            compared++;
            String expected = MutationFunctions.shiftLines(s.dump(f), shift);
            MutationFunctions.Def now = after.byKey.get(f.key());
            String actual = now == null ? "<no function " + f.key() + " in the damaged file>" : now.dump();
            if (!expected.equals(actual)) {
                differing++;
                String diff = MutationFunctions.firstDifference(expected, actual);
                if (differing == 1 && stats.violations.size() < MAX_LISTED) {
                    stats.violations.add(new Violation(s.name, f.key(), m, diff, damaged.key()));
                }
                if (log != null) log.append("  DIFFERS ").append(f.key()).append(": ").append(diff).append('\n');
            }
        }
        if (compared == 0) {
            skip(stats, "damage not inside one function body", log); // nothing else to compare with
            return;
        }
        stats.checked++;
        stats.functionsCompared += compared;
        if (differing == 0) stats.held++;
        else stats.violatedInputs++;
        if (log != null) {
            log.append("containment: damaged function ").append(damaged.key()).append(", lines ").append(first).append('-')
               .append(last).append(", line delta ").append(delta).append(", ").append(compared)
               .append(" other functions compared, ").append(differing).append(" differ\n");
        }
    }

    private static void skip(Stats stats, String reason, StringBuilder log) {
        stats.skipped.merge(reason, 1, Integer::sum);
        if (log != null) log.append("containment: not applicable (").append(reason).append(")\n");
    }

    /** Offsets (in the original) that a mutation removes or changes; for an insertion, the insertion point. */
    private static int[] changedPositions(byte[] src, Mutation m) {
        if (m.kind() != MutationKind.FLIP_BYTES || m.replacement().length != m.end() - m.start()) {
            if (m.end() == m.start()) return new int[] {m.start()};
            int[] all = new int[m.end() - m.start()];
            for (int i = 0; i < all.length; i++) all[i] = m.start() + i;
            return all;
        }
        int[] out = new int[m.end() - m.start()];
        int n = 0;
        for (int i = m.start(); i < m.end(); i++) if (src[i] != m.replacement()[i - m.start()]) out[n++] = i;
        return Arrays.copyOf(out, n);
    }

    /** Why the containment property does not apply to this mutation, or null when it does. */
    private static String exclusion(Sample s, Mutation m, int[] changed, MutationLex after, MutationFunctions.Def damaged, int first) {
        MutationLex lex = s.lex;
        byte[] src = s.bytes;
        // Damage inside a triple-quoted string (deleting, changing or inserting bytes there).
        for (int p : changed) {
            if (p < src.length && lex.cls[p] == MutationLex.TRIPLE) {
                if (m.start() != m.end()) return "inside a triple-quoted string";
                int[] str = lex.stringAt(p);
                if (str != null && p > str[0]) return "inside a triple-quoted string"; // insertion strictly inside
            }
        }
        // Quotes and backslashes.
        switch (m.kind()) {
            case FLIP_BYTES:
                for (int p : changed) {
                    if (isQuoteOrBackslash(src[p]) || isQuoteOrBackslash(m.replacement()[p - m.start()])) {
                        return "adds/removes a quote or backslash";
                    }
                }
                break;
            case DELETE_LINES:
                // Whole lines go: their quotes and backslashes matter only when a string or a
                // backslash continuation crosses the edge of the deleted lines.
                for (int p = m.start(); p < m.end(); p++) {
                    if (!isQuoteOrBackslash(src[p]) || lex.cls[p] == MutationLex.COMMENT) continue;
                    int[] str = lex.stringAt(p);
                    if (str == null || str[0] < m.start() || str[1] > m.end()) return "adds/removes a quote or backslash";
                }
                int before = m.start() - 1; // the line before ends with a backslash continuation?
                if (before >= 0 && src[before] == '\n') before--;
                if (before >= 0 && src[before] == '\r') before--;
                if (before >= 0 && before < m.start() - 1 && src[before] == '\\' && lex.cls[before] == MutationLex.CODE) {
                    return "adds/removes a quote or backslash";
                }
                break;
            default:
                if (m.touchesAny(src, "'\"\\")) return "adds/removes a quote or backslash";
                break;
        }
        // A statement of the damaged lines now indented less than the function body: it ends the function.
        int bodyIndent = lex.indent[damaged.bodyStart()];
        int delta = after.lineBreaks - lex.lineBreaks;
        int lastInAfter = Math.min(after.lineCount(), damaged.endLine() + delta);
        for (int line = first; line <= lastInAfter; line++) {
            if (after.logicalStart[line] && !after.blank[line] && after.indent[line] < bodyIndent) {
                return "dedents out of the function";
            }
        }
        return null;
    }

    private static boolean isQuoteOrBackslash(byte b) {
        return b == '\'' || b == '"' || b == '\\';
    }

    // --- parsing on the worker thread ----------------------------------------------------------

    private interface Describer {
        String describe();
    }

    private static Outcome parseOnWorker(byte[] bytes, Describer what) throws Exception {
        Future<Outcome> f = worker.submit(() -> {
            long t0 = System.nanoTime();
            try {
                ParseResult r = parser.parse(bytes);
                return new Outcome(r, System.nanoTime() - t0, null);
            } catch (Throwable t) {
                parser = new PythonSourceParser(); // do not reuse an instance left mid-parse
                return new Outcome(null, System.nanoTime() - t0, t);
            }
        });
        try {
            return f.get(HANG_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            // The worker may be stuck for good: stop here with the reproducer.
            startWorker();
            parser = new PythonSourceParser();
            fail("parse did not finish within " + HANG_SECONDS + " s: " + what.describe());
            return null;
        }
    }

    /**
     * The parser catches its own RuntimeExceptions and StackOverflowErrors and reports them as a
     * syntax error at 1:1; those are exceptions too.
     */
    static boolean isSwallowedException(SyntaxError e) {
        String m = e.message() == null ? "" : e.message();
        return m.startsWith("internal parser error") || m.startsWith("too many nested parentheses or blocks");
    }

    private static String stackHead(Throwable t) {
        StringBuilder b = new StringBuilder(t.toString());
        StackTraceElement[] st = t.getStackTrace();
        for (int i = 0; i < Math.min(8, st.length); i++) b.append("\n        at ").append(st[i]);
        return b.toString();
    }

    // --- sampling ------------------------------------------------------------------------------

    private static List<Sample> sampleFiles() throws IOException, InterruptedException {
        List<Path> all;
        try (Stream<Path> walk = Files.walk(STDLIB)) {
            all = walk.filter(p -> p.toString().endsWith(".py") && Files.isRegularFile(p))
                      .filter(p -> {
                          String rel = STDLIB.relativize(p).toString().replace('\\', '/');
                          return !rel.startsWith("site-packages/") && !rel.contains("__pycache__/");
                      })
                      .sorted((x, y) -> STDLIB.relativize(x).toString().compareTo(STDLIB.relativize(y).toString()))
                      .toList();
        }
        Map<Path, byte[]> sized = new LinkedHashMap<>();
        for (Path p : all) {
            byte[] bytes = Files.readAllBytes(p);
            int lines = new MutationLex(bytes).lineCount();
            if (lines >= MIN_LINES && lines <= MAX_LINES) sized.put(p, bytes);
        }
        Set<String> accepted = acceptedByCPython(sized.keySet());
        List<Path> pool = sized.keySet().stream().filter(p -> accepted.contains(p.toString())).toList();
        assertTrue(pool.size() >= FILES, "only " + pool.size() + " candidate files");
        List<Sample> out = new ArrayList<>();
        for (int i = 0; i < FILES; i++) {
            Path p = pool.get((int) ((long) i * pool.size() / FILES));
            out.add(new Sample(STDLIB.relativize(p).toString(), sized.get(p)));
        }
        poolSize = pool.size();
        return out;
    }

    private static int poolSize;

    private static Set<String> acceptedByCPython(Iterable<Path> files) throws IOException, InterruptedException {
        String script = String.join("\n",
                "import ast, sys, warnings",
                "warnings.simplefilter('ignore')",
                "for line in sys.stdin:",
                "    p = line.rstrip('\\n')",
                "    try:",
                "        ast.parse(open(p, 'rb').read(), p)",
                "    except Exception:",
                "        continue",
                "    print(p)");
        Process proc = new ProcessBuilder(PYTHON, "-c", script).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        StringBuilder in = new StringBuilder();
        for (Path p : files) in.append(p).append('\n');
        try (OutputStream os = proc.getOutputStream()) {
            os.write(in.toString().getBytes(StandardCharsets.UTF_8));
        }
        String outText = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, proc.waitFor(), "CPython failed to list the files it accepts");
        return new HashSet<>(outText.lines().toList());
    }

    // --- reporting -----------------------------------------------------------------------------

    private static String summary(List<Sample> samples, Stats st, double warmSeconds, double runSeconds) {
        StringBuilder b = new StringBuilder();
        int total = st.inputs.values().stream().mapToInt(Integer::intValue).sum();
        long[] ns = Arrays.copyOf(st.nanos, st.timed);
        Arrays.sort(ns);
        b.append("== Mutation robustness (MutationRobustnessTest)\n");
        b.append(String.format(Locale.ROOT, "files: %d sampled evenly from %d stdlib files of %d-%d lines that CPython accepts (%s)%n",
                samples.size(), poolSize, MIN_LINES, MAX_LINES, STDLIB));
        b.append(String.format(Locale.ROOT, "seed 0x%016x; baseline + warm-up %.1f s (2 undamaged passes + %d mutated inputs), run %.1f s%n",
                BASE_SEED, warmSeconds, WARMUP_INPUTS, runSeconds));
        b.append("inputs: ").append(total).append(" ").append(st.inputs).append('\n');
        b.append("exceptions (thrown, or caught by the parser and reported as 'internal parser error'/'too many nested'): ")
         .append(st.exceptions.size()).append("; null modules: ").append(st.nullModules.size())
         .append("; parses >= 1 s: ").append(st.slow.size()).append('\n');
        if (ns.length > 0) {
            b.append(String.format(Locale.ROOT, "parse time per input: median %.2f ms, p99 %.2f ms, max %.2f ms (%s)%n",
                    ns[ns.length / 2] / 1e6, ns[Math.min(ns.length - 1, (int) Math.ceil(ns.length * 0.99) - 1)] / 1e6,
                    ns[ns.length - 1] / 1e6, st.slowest));
        }
        b.append("parse errors reported: ").append(total - st.noErrors).append(" inputs with errors ").append(st.withErrors)
         .append(", ").append(st.noErrors).append(" without, ").append(st.totalErrors).append(" errors in all\n");
        long dirty = samples.stream().filter(s -> !s.baselineClean).count();
        b.append("undamaged files our parser reports errors on: ").append(dirty);
        samples.stream().filter(s -> !s.baselineClean).limit(5).forEach(s -> b.append(" ").append(s.name));
        b.append(dirty > 5 ? " ...\n" : "\n");
        b.append(String.format(Locale.ROOT, "containment: checked %d (%d other functions compared), held %d, violated %d%n",
                st.checked, st.functionsCompared, st.held, st.violatedInputs));
        b.append("  not applicable: ").append(st.skipped).append('\n');
        b.append("  excluded: ").append(st.excluded).append('\n');
        b.append(st.crossCheck);
        if (!st.violations.isEmpty()) {
            b.append("first ").append(st.violations.size()).append(" violations:\n");
            for (Violation v : st.violations) b.append("  ").append(describe(v)).append('\n');
        }
        if (!st.exceptions.isEmpty()) {
            b.append("first exceptions:\n");
            st.exceptions.stream().limit(20).forEach(e -> b.append("  ").append(e).append('\n'));
        }
        if (!st.slow.isEmpty()) {
            b.append("slow parses:\n");
            st.slow.stream().limit(20).forEach(e -> b.append("  ").append(e).append('\n'));
        }
        if (!st.nullModules.isEmpty()) {
            b.append("null modules:\n");
            st.nullModules.stream().limit(20).forEach(e -> b.append("  ").append(e).append('\n'));
        }
        return b.toString();
    }

    private static String describe(Violation v) {
        return v.function + " changed (damage in " + v.damaged + "): " + v.difference + "\n      " + v.mutation.reproducer(v.file);
    }

    // --- reproducing one input -----------------------------------------------------------------

    private void reproduce(String spec) throws Exception {
        String[] f = spec.split("@");
        assertEquals(3, f.length, "expected -Dgm.mutation.repro=FILE@KIND@SEED");
        Path path = STDLIB.resolve(f[0]);
        Sample s = new Sample(f[0], Files.readAllBytes(path));
        Outcome base = parseOnWorker(s.bytes, () -> "undamaged " + f[0]);
        if (base.result != null) {
            s.baselineClean = !base.result.hasErrors();
            s.functions = new MutationFunctions(base.result.module(), s.lex);
        }
        Mutation m = MutationGenerator.generate(s.bytes, s.lex, MutationKind.valueOf(f[1]),
                Long.parseUnsignedLong(f[2].replaceFirst("^0x", ""), f[2].startsWith("0x") ? 16 : 10));
        byte[] mutated = m.apply(s.bytes);
        StringBuilder log = new StringBuilder("== ").append(m.reproducer(s.name)).append('\n');
        int from = Math.max(1, s.lex.lineOf(m.start()) - 2);
        MutationLex after = new MutationLex(mutated);
        log.append("damaged text (lines ").append(from).append("..):\n");
        int to = Math.min(after.lineCount(), after.lineOf(m.start() + m.replacement().length) + 2);
        log.append(new String(mutated, after.lineStart(from), after.lineStart(to + 1) - after.lineStart(from), StandardCharsets.UTF_8)).append('\n');
        Outcome o = parseOnWorker(mutated, () -> m.reproducer(s.name));
        if (o.thrown != null) {
            log.append("THREW: ").append(stackHead(o.thrown)).append('\n');
        } else {
            log.append(String.format(Locale.ROOT, "parse: %.2f ms, %d errors %s%n", o.nanos / 1e6,
                    o.result.errors().size(), o.result.errors().stream().limit(10).toList()));
            Stats st = new Stats();
            checkContainment(s, m, mutated, o.result, st, log);
        }
        System.out.print(log);
        assertTrue(o.thrown == null, log::toString);
    }

    private static String setting(String property, String env, String fallback) {
        String v = System.getProperty(property);
        if ((v == null || v.isBlank()) && env != null) v = System.getenv(env);
        return v == null || v.isBlank() ? fallback : v;
    }
}
