package dev.graphmend.cli;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.Patch;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.config.ConfigFile;
import dev.graphmend.passes.fix.FixAll;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.Charset;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code graphmend fix}: applies the legal fixes of every file to a fixed point (safe ones, and
 * unsafe ones with {@code --unsafe-fixes}), then writes each changed file atomically (a
 * temporary file in the same folder, renamed over the original; on any error the original is
 * untouched) in its own encoding, or with {@code --diff} prints a unified diff and writes
 * nothing. Reports what it changed and, for what remains, why it was not fixed.
 * Exit 0 when nothing remains (with --diff: when nothing would change), 1 otherwise, 2 on errors.
 */
final class FixCommand {
    int run(List<String> args, Writer out, PrintStream err) throws IOException {
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
        CheckCommand.Inputs inputs = CheckCommand.Inputs.expand(o.paths, err);
        if (inputs.files.isEmpty()) {
            if (!inputs.failed) err.println("graphmend fix: no Python files to fix");
            return Main.EXIT_USAGE;
        }
        AnalysisConfig config;
        try {
            config = o.config(o.noConfig ? AnalysisConfig.defaults() : ConfigFile.nearest(inputs.files.get(0).file()));
        } catch (ConfigFile.ConfigException e) {
            err.println("graphmend fix: " + e.getMessage());
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
        int fixed = 0, remaining = 0, changedFiles = 0;
        Map<String, Integer> byFix = new TreeMap<>(), byReason = new TreeMap<>();
        // one analysis of the whole project finds the files with something to fix or to report;
        // each of those is then fixed against its neighbourhood (FixAll.neighbourhood)
        Map<SourceModule, List<dev.graphmend.passes.Diagnostic>> first = dev.graphmend.passes.Analyzer.analyze(loaded.project());
        for (SourceModule m : modules) {
            if (first.get(m).stream().allMatch(d -> d.code().equals("GM000"))) continue;
            List<SourceModule> others = FixAll.neighbourhood(m, modules, loaded.project(), first.get(m));
            String before = m.ir().document().text();
            FixAll.Result r = FixAll.apply(Paths.get(m.path()), before, config, others);
            for (FixAll.Applied a : r.applied()) {
                out.write(m.path() + ":" + a.line() + ": " + a.code() + " fixed: " + a.title()
                        + (a.safety().equals("unsafe") ? " (unsafe)" : "") + "\n");
                byFix.merge(a.code() + " " + a.title(), 1, Integer::sum);
            }
            for (FixAll.Declined d : r.declined()) {
                out.write(m.path() + ":" + d.line() + ": " + d.code() + " not fixed: " + d.reason() + "\n");
                byReason.merge(d.code() + " " + d.reason(), 1, Integer::sum);
            }
            fixed += r.applied().size();
            remaining += r.declined().size();
            if (!r.changed(before)) continue;
            changedFiles++;
            if (o.diff) {
                writeDiff(m.path(), before, r.text(), out);
            } else {
                try {
                    writeAtomically(Paths.get(m.path()), r.text());
                } catch (IOException e) {
                    err.println("graphmend: " + m.path() + ": cannot write (left unchanged): " + e.getMessage());
                    ioError = true;
                }
            }
        }
        if (!o.quiet) {
            out.write((o.diff ? "Would fix " : "Fixed ") + fixed + " diagnostic" + (fixed == 1 ? "" : "s") + " in " + changedFiles
                    + " file" + (changedFiles == 1 ? "" : "s") + "; " + remaining + " remaining"
                    + (remaining > 0 && !config.unsafeFixes() ? " (some may have unsafe fixes: --unsafe-fixes)" : "") + ".\n");
        }
        if (ioError) return Main.EXIT_USAGE;
        if (o.exitZero) return Main.EXIT_OK;
        if (o.diff) return changedFiles > 0 ? Main.EXIT_FOUND : Main.EXIT_OK;
        return remaining > 0 ? Main.EXIT_FOUND : Main.EXIT_OK;
    }

    static void writeDiff(String path, String before, String after, Writer out) throws IOException {
        List<String> a = Arrays.asList(before.split("\n", -1)), b = Arrays.asList(after.split("\n", -1));
        Patch<String> patch = DiffUtils.diff(a, b);
        for (String line : UnifiedDiffUtils.generateUnifiedDiff(path, path, a, patch, 3)) {
            out.write(line);
            out.write("\n");
        }
    }

    /**
     * Writes next to the file, then renames over it, so a reader sees the old or the new file and
     * never half of one. The file's encoding (coding cookie) and UTF-8 BOM are kept.
     */
    static void writeAtomically(Path file, String text) throws IOException {
        byte[] original = Files.readAllBytes(file);
        dev.graphmend.ir.source.SourceText decoded = dev.graphmend.ir.source.SourceText.decode(original);
        Charset cs;
        try {
            cs = Charset.forName(decoded.encoding());
        } catch (RuntimeException e) {
            cs = java.nio.charset.StandardCharsets.UTF_8;
        }
        byte[] body = text.getBytes(cs);
        boolean bom = original.length >= 3 && (original[0] & 0xff) == 0xEF && (original[1] & 0xff) == 0xBB && (original[2] & 0xff) == 0xBF;
        if (bom && !(text.startsWith("\uFEFF"))) {
            byte[] withBom = new byte[body.length + 3];
            withBom[0] = (byte) 0xEF; withBom[1] = (byte) 0xBB; withBom[2] = (byte) 0xBF;
            System.arraycopy(body, 0, withBom, 3, body.length);
            body = withBom;
        }
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".graphmend-tmp");
        try {
            Files.write(tmp, body);
            try {
                Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(file));
            } catch (UnsupportedOperationException | IOException ignored) {
                // not a POSIX file system: the default permissions stay
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
