package dev.graphmend.cli;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.Patch;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.config.TorchVersionResolver;
import dev.graphmend.passes.FixAll;
import dev.graphmend.passes.model.Diagnostic;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code graphmend fix}: applies the legal fixes of every file to a fixed point (safe ones, and
 * unsafe ones with {@code --unsafe-fixes}), then replaces each changed file through
 * {@link SafeWrite} (atomically, keeping its encoding, BOM, line endings, mode and owner; a
 * read-only file is refused), or with {@code --diff} prints a unified diff on stdout and writes
 * nothing. Reports what it changed and, for what remains, why it was not fixed (on stderr with
 * --diff). A file that could not be written is reported with the OS's reason and its fixes count
 * as remaining. Exit 0 when nothing remains (with --diff: when nothing would change), 1
 * otherwise, 2 on errors (any file not written included).
 */
final class FixCommand {
    /** The process environment: where the project's torch may be installed ({@link TorchVersionResolver}). */
    private final Map<String, String> environment;

    FixCommand(Map<String, String> environment) {
        this.environment = environment;
    }

    int run(List<String> args, Stdout out, PrintStream err) throws IOException {
        CheckOptions o;
        try {
            o = CheckOptions.parse(args, true);
        } catch (CheckOptions.UsageException e) {
            err.println("graphmend fix: " + e.getMessage() + " (see 'graphmend fix --help')");
            return Main.EXIT_USAGE;
        }
        if (o.help) {
            out.write(CheckOptions.usage(true));
            return Main.EXIT_OK;
        }
        // every file is fixed even when the output cannot be written (a full disk, a closed pipe)
        out.keepGoingOnFailure();
        return out.exitStatus(fix(o, out, err), err, o.diff ? "nothing was written to the files"
                : "the fixes were still written to the files, as far as they could be");
    }

    private int fix(CheckOptions o, Stdout out, PrintStream err) throws IOException {
        AnalysisConfig config = CheckCommand.loadConfig(o, CheckCommand.configStart(o.paths.get(0)), "fix", err, environment);
        if (config == null) return Main.EXIT_USAGE;
        CheckCommand.Inputs inputs = CheckCommand.Inputs.expand(o.paths, config.files(), o.forceExclude, err);
        if (inputs.files.isEmpty()) {
            if (inputs.onlyForceExcluded()) return Main.EXIT_OK;
            if (!inputs.failed) err.println("graphmend fix: no Python files to fix");
            return Main.EXIT_USAGE;
        }
        ProjectLoader.Loaded loaded = ProjectLoader.load(inputs.files, config);
        boolean ioError = inputs.failed;
        for (ProjectLoader.Problem p : loaded.problems()) {
            err.println("graphmend: " + p.path() + ": " + p.message());
            ioError = true;
        }
        List<SourceModule> modules = new ArrayList<>(loaded.project().modules());
        modules.sort((a, b) -> PathExpander.CODE_POINT_ORDER.compare(a.path(), b.path()));
        int fixed = 0, remaining = 0, changedFiles = 0, unwritten = 0, unwrittenFiles = 0, unsafeAvailable = 0;
        // with --diff, stdout carries the diff alone, so that it can be piped to `git apply`
        Status status = o.diff ? err::print : out::write;
        // one analysis of the whole project finds the files with something to fix or to report;
        // each of those is then fixed against its neighbourhood (FixAll.neighbourhood)
        dev.graphmend.passes.Findings analysed = dev.graphmend.passes.Analyzer.analyze(loaded.project());
        java.util.Set<String> internal = new java.util.LinkedHashSet<>(analysed.internalErrors());
        // only the diagnostics are kept: the analysis behind them is garbage while the files are fixed
        Map<SourceModule, List<Diagnostic>> first = new java.util.IdentityHashMap<>(analysed);
        analysed = null;
        for (SourceModule m : modules) {
            if (first.get(m).stream().allMatch(d -> d.code().equals("GM000"))) continue;
            List<SourceModule> others = FixAll.neighbourhood(m, modules, loaded.project(), first.get(m));
            String before = m.ir().document().text();
            FixAll.Result r = FixAll.apply(Paths.get(m.path()), before, config, others);
            internal.addAll(r.internalErrors());
            Outcome outcome = r.changed(before) ? rewrite(m.path(), before, r.text(), o.diff, out, err) : Outcome.UNCHANGED;
            ioError |= outcome == Outcome.NOT_WRITTEN;
            boolean written = outcome == Outcome.WRITTEN || outcome == Outcome.UNCHANGED;
            // every line printed is the original file's: the rounds' edits moved the later ones
            List<List<Diagnostic.Edit>> rounds = r.roundEdits();
            // a file that was not written keeps every diagnostic: only what was written counts
            for (FixAll.Applied a : written ? r.applied() : List.<FixAll.Applied>of()) {
                status.print(m.path() + ":" + OriginalLines.through(rounds, a.round(), a.line()) + ": " + a.code() + " fixed: "
                        + a.title() + (!a.safety().isSafe() ? " (unsafe)" : "") + "\n");
            }
            for (FixAll.Declined d : r.declined()) {
                status.print(m.path() + ":" + OriginalLines.through(rounds, rounds.size(), d.line()) + ": " + d.code()
                        + " not fixed: " + d.reason() + "\n");
            }
            fixed += written ? r.applied().size() : 0;
            remaining += r.declined().size();
            unsafeAvailable += (int) r.declined().stream().filter(FixAll.Declined::unsafeFixAvailable).count();
            if (!written) {
                unwritten += r.applied().size();
                unwrittenFiles++;
            }
            if (outcome == Outcome.WRITTEN) changedFiles++;
        }
        for (String e : internal) err.print("graphmend: " + e + " (the rest was analysed; please report this)\n");
        if (!o.quiet) {
            // as ruff: say how many an unsafe fix would take only when some would (not "some may")
            status.print((o.diff ? "Would fix " : "Fixed ") + fixed + " diagnostic" + (fixed == 1 ? "" : "s") + " in " + changedFiles
                    + " file" + (changedFiles == 1 ? "" : "s") + "; "
                    + (unwritten > 0 ? unwritten + " fixable but not written (" + unwrittenFiles + " file" + (unwrittenFiles == 1 ? "" : "s")
                            + " could not be written, see above); " : "")
                    + remaining + " remaining"
                    + (unsafeAvailable > 0 ? " (" + unsafeAvailable + " fixable with --unsafe-fixes)" : "") + ".\n");
        }
        if (ioError) return Main.EXIT_USAGE;
        if (o.exitZero) return Main.EXIT_OK;
        if (o.diff) return changedFiles + unwritten > 0 ? Main.EXIT_FOUND : Main.EXIT_OK;
        return remaining + unwritten > 0 ? Main.EXIT_FOUND : Main.EXIT_OK;
    }

    /** What became of a file's fixed text. */
    enum Outcome {
        /** nothing to write */
        UNCHANGED,
        /** written (with --diff: put in the diff) */
        WRITTEN,
        /** the file could not be read back or written: an I/O error */
        NOT_WRITTEN,
        /** the fixed text has a syntax error the original has not: a bug of ours, the file left alone */
        WOULD_NOT_COMPILE
    }

    /**
     * Writes a file's fixed text, or with {@code diff} its diff: the bytes the file would get, in
     * its own encoding, BOM and line endings, once they are known to parse wherever the original did.
     * Says why on {@code err} when it does not.
     */
    static Outcome rewrite(String path, String before, String fixed, boolean diff, Stdout out, PrintStream err)
            throws IOException {
        SafeWrite.Prepared p;
        try {
            p = SafeWrite.prepare(Paths.get(path), before, SafeWrite.withOriginalEndings(before, fixed));
        } catch (IOException e) {
            return notWritten(path, e, err);
        }
        String broken = CompileGuard.newSyntaxError(p.before(), p.after());
        if (broken != null) {
            err.println("graphmend: " + path + ": not fixed: the rewrite would not compile: " + broken
                    + " (the file is left unchanged; please report this)");
            return Outcome.WOULD_NOT_COMPILE;
        }
        if (diff) {
            out.writeBytes(diff(path, p.before(), p.after()));
            return Outcome.WRITTEN;
        }
        try {
            SafeWrite.write(p);
            return Outcome.WRITTEN;
        } catch (IOException e) {
            return notWritten(path, e, err);
        }
    }

    private static Outcome notWritten(String path, IOException e, PrintStream err) {
        err.println("graphmend: " + path + ": not written (left unchanged): " + SafeWrite.reason(e));
        return Outcome.NOT_WRITTEN;
    }

    /** Where status lines go: stdout, or stderr when stdout carries a diff. */
    private interface Status {
        void print(String s) throws IOException;
    }

    /**
     * A unified diff that {@code git apply} (and {@code patch -p1}) takes: {@code a/} and
     * {@code b/} prefixes, and a last line without a line break marked as such. Its lines are the
     * file's bytes (its encoding, BOM and line endings), which is what git compares; git splits
     * lines at LF only, so a file of CR line endings is one line to it, and so to the diff.
     */
    static byte[] diff(String path, byte[] before, byte[] after) {
        // ISO-8859-1 maps each byte to one char and back: a diff of bytes with a diff of strings
        List<String> a = diffLines(new String(before, StandardCharsets.ISO_8859_1));
        List<String> b = diffLines(new String(after, StandardCharsets.ISO_8859_1));
        Patch<String> patch = DiffUtils.diff(a, b);
        // the header names the file by the bytes the file system has for its name (UTF-8)
        String shown = new String(diffPath(path).getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        StringBuilder sb = new StringBuilder();
        for (String line : UnifiedDiffUtils.generateUnifiedDiff("a/" + shown, "b/" + shown, a, patch, 3)) sb.append(line).append('\n');
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * The path as the diff names it: an absolute path without its root, as git names it
     * ({@code a/root/m.py}, not {@code a//root/m.py}, which {@code patch -p1} read as absolute).
     */
    static String diffPath(String path) {
        try {
            // normalized: git refuses a path with a "." component ("a/./m.py": invalid path)
            java.nio.file.Path p = java.nio.file.Path.of(path).normalize();
            if (p.isAbsolute() && p.getRoot() != null) p = p.getRoot().relativize(p);
            return p.toString().replace('\\', '/');
        } catch (RuntimeException e) {
            // not a path this platform reads: shown as given
        }
        return path;
    }

    /**
     * The lines without their LF (a CR stays, as git keeps it); a last line without a line break
     * carries the "no newline" marker, so that it differs from the same line with one and the
     * marker follows it in the diff.
     */
    private static List<String> diffLines(String text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int nl; (nl = text.indexOf('\n', start)) >= 0; start = nl + 1) out.add(text.substring(start, nl));
        if (start < text.length()) out.add(text.substring(start) + "\n\\ No newline at end of file");
        return out;
    }
}
