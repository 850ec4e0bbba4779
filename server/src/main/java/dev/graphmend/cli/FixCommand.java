package dev.graphmend.cli;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.Patch;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.FixAll;
import dev.graphmend.passes.model.Diagnostic;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
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
        AnalysisConfig config = CheckCommand.loadConfig(o, CheckCommand.configStart(o.paths.get(0)), "fix", err);
        if (config == null) return Main.EXIT_USAGE;
        CheckCommand.Inputs inputs = CheckCommand.Inputs.expand(o.paths, config.files(), err);
        if (inputs.files.isEmpty()) {
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
            boolean written = true;
            if (r.changed(before)) {
                String after = SafeWrite.withOriginalEndings(before, r.text());
                if (o.diff) {
                    writeDiff(m.path(), before, after, out);
                } else {
                    try {
                        SafeWrite.replace(Paths.get(m.path()), before, after);
                    } catch (IOException e) {
                        err.println("graphmend: " + m.path() + ": not written (left unchanged): " + SafeWrite.reason(e));
                        ioError = true;
                        written = false;
                    }
                }
            }
            // a file that could not be written keeps every diagnostic: only what was written counts
            for (FixAll.Applied a : written ? r.applied() : List.<FixAll.Applied>of()) {
                status.print(m.path() + ":" + a.line() + ": " + a.code() + " fixed: " + a.title()
                        + (!a.safety().isSafe() ? " (unsafe)" : "") + "\n");
            }
            for (FixAll.Declined d : r.declined()) {
                status.print(m.path() + ":" + d.line() + ": " + d.code() + " not fixed: " + d.reason() + "\n");
            }
            fixed += written ? r.applied().size() : 0;
            remaining += r.declined().size();
            unsafeAvailable += (int) r.declined().stream().filter(FixAll.Declined::unsafeFixAvailable).count();
            if (!written) {
                unwritten += r.applied().size();
                unwrittenFiles++;
            }
            if (written && r.changed(before)) changedFiles++;
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
        if (o.diff) return changedFiles > 0 ? Main.EXIT_FOUND : Main.EXIT_OK;
        return remaining + unwritten > 0 ? Main.EXIT_FOUND : Main.EXIT_OK;
    }

    /** Where status lines go: stdout, or stderr when stdout carries a diff. */
    private interface Status {
        void print(String s) throws IOException;
    }

    /**
     * A unified diff that {@code git apply} (and {@code patch -p1}) takes: {@code a/} and
     * {@code b/} prefixes, and a last line without a line break marked as such.
     */
    static void writeDiff(String path, String before, String after, Writer out) throws IOException {
        List<String> a = diffLines(before), b = diffLines(after);
        Patch<String> patch = DiffUtils.diff(a, b);
        String shown = diffPath(path);
        for (String line : UnifiedDiffUtils.generateUnifiedDiff("a/" + shown, "b/" + shown, a, patch, 3)) {
            out.write(line);
            out.write("\n");
        }
    }

    /**
     * The path as the diff names it: an absolute path without its root, as git names it
     * ({@code a/root/m.py}, not {@code a//root/m.py}, which {@code patch -p1} read as absolute).
     */
    static String diffPath(String path) {
        try {
            java.nio.file.Path p = java.nio.file.Path.of(path);
            if (p.isAbsolute() && p.getRoot() != null) return p.getRoot().relativize(p).toString().replace('\\', '/');
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
