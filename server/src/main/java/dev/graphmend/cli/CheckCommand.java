package dev.graphmend.cli;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.graphmend.ir.source.LineIndex;
import dev.graphmend.passes.Analyzer;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.model.RuleInfo;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.config.ConfigFile;
import dev.graphmend.passes.config.TorchVersion;
import dev.graphmend.passes.config.TorchVersionResolver;
import dev.graphmend.passes.registry.RuleRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code graphmend check}: loads the files and folders given, analyses them as one project
 * (so compile regions cross files), and prints the diagnostics as text, JSON (docs/cli.md) or
 * SARIF 2.1.0. Exit 0 when nothing is found, 1 when something is, 2 on a usage or I/O error
 * (files that could not be read are reported and the others still checked).
 */
final class CheckCommand {
    private static final long PROGRESS_EVERY_MS = 2000;

    private final java.io.InputStream stdin;
    /** The process environment: where the project's torch may be installed ({@link TorchVersionResolver}). */
    private final Map<String, String> environment;

    CheckCommand(java.io.InputStream stdin, Map<String, String> environment) {
        this.stdin = stdin;
        this.environment = environment;
    }

    int run(List<String> args, Stdout out, PrintStream err) throws IOException {
        CheckOptions o;
        try {
            o = CheckOptions.parse(args, false);
        } catch (CheckOptions.UsageException e) {
            err.println("graphmend check: " + e.getMessage() + " (see 'graphmend check --help')");
            return Main.EXIT_USAGE;
        }
        if (o.help) {
            out.write(CheckOptions.usage(false));
            return Main.EXIT_OK;
        }
        // every file is checked even when the report cannot be written (a full disk, a closed pipe)
        out.keepGoingOnFailure();
        return out.exitStatus(check(o, out, err), err, "every file was still checked");
    }

    private int check(CheckOptions o, Writer out, PrintStream err) throws IOException {
        boolean fromStdin = o.paths.equals(List.of("-"));
        // standard input, as ruff reads it: shown (and configured) as --stdin-filename when given
        Path stdinPath = o.stdinFilename != null ? Paths.get(o.stdinFilename) : Paths.get("").toAbsolutePath().resolve("stdin.py");
        AnalysisConfig config = loadConfig(o, fromStdin ? stdinPath : configStart(o.paths.get(0)), "check", err, environment);
        if (config == null) return Main.EXIT_USAGE;
        Inputs inputs;
        if (fromStdin) {
            inputs = new Inputs();
            inputs.files.add(new ProjectLoader.Input(stdinPath, o.stdinFilename != null ? o.stdinFilename : "-", stdin.readAllBytes()));
        } else {
            inputs = Inputs.expand(o.paths, config.files(), o.forceExclude, err);
        }
        if (inputs.files.isEmpty()) {
            if (inputs.onlyForceExcluded()) return Main.EXIT_OK; // as ruff: nothing left to check is no error
            if (!inputs.failed) err.println("graphmend check: no Python files to check");
            return Main.EXIT_USAGE;
        }
        boolean progress = (o.format.equals("text") || o.format.equals("full")) && !o.quiet && inputs.files.size() > 200;
        long start = System.currentTimeMillis();
        if (progress) err.println("graphmend: checking " + inputs.files.size() + " files…");
        ProjectLoader.Loaded loaded = ProjectLoader.load(inputs.files, config);
        if (progress) err.println("graphmend: parsed " + inputs.files.size() + " files in "
                + (System.currentTimeMillis() - start) + " ms; analysing…");
        boolean ioError = inputs.failed;
        // what could not be read goes to stderr as it is met, and into the JSON's errors and SARIF's notifications
        List<ProjectLoader.Problem> problems = new ArrayList<>(inputs.problems);
        for (ProjectLoader.Problem p : loaded.problems()) {
            err.println("graphmend: " + p.path() + ": " + p.message());
            problems.add(p);
            ioError = true;
        }
        // JSON carries each fix's edits: build them in the analysis; the other formats only say a fix exists
        dev.graphmend.passes.Findings found = Analyzer.analyze(loaded.project(), null, null, o.format.equals("json"));
        for (String e : found.internalErrors()) {
            err.println("graphmend: " + e + " (the rest was analysed; please report this)");
        }
        List<SourceModule> modules = loaded.project().modules();
        int count = 0;
        for (List<Diagnostic> l : found.values()) count += l.size();
        switch (o.format) {
            case "json": writeJson(modules, found, count, problems, config.torch(), o.summary ? config : null, out); break;
            case "sarif": writeSarif(modules, found, problems, out); break;
            default:
                if (o.statistics) writeStatistics(found, config, out);
                else writeText(modules, found, count, !o.quiet, config, problems.size(), o.format.equals("full"), out);
                if (o.summary) writeReadiness(found, found.attribution(), config, out);
                break;
        }
        if (progress) err.println("graphmend: done in " + (System.currentTimeMillis() - start) + " ms");
        if (ioError) return Main.EXIT_USAGE;
        return count > 0 && !o.exitZero ? Main.EXIT_FOUND : Main.EXIT_OK;
    }

    /**
     * The configuration, found from {@code from}'s folder up before any walk (it says which files a
     * walk reads), with the flags over it and, when neither names a torch-version, the torch the
     * project's environment or pin says (docs/configuration.md, "Where the torch version comes
     * from"); warnings printed (a torch older than any the rules were observed on is one), and with
     * {@code --verbose} where the torch version came from; null after printing a configuration error.
     */
    static AnalysisConfig loadConfig(CheckOptions o, Path from, String command, PrintStream err, Map<String, String> environment) {
        try {
            List<String> warnings = new java.util.ArrayList<>();
            AnalysisConfig c = o.config(o.noConfig ? AnalysisConfig.defaults() : ConfigFile.nearest(from, warnings));
            c = new TorchVersionResolver(environment).resolve(c, TorchVersionResolver.projectRoot(from), null);
            String old = c.torch().olderThanObservedWarning();
            if (old != null) warnings.add(old);
            for (String w : warnings) err.println("graphmend " + command + ": warning: " + w);
            if (o.verbose) err.println("graphmend " + command + ": torch-version " + c.torchVersion() + ": " + c.torch().describe());
            return c;
        } catch (ConfigFile.ConfigException e) {
            err.println("graphmend " + command + ": " + e.getMessage());
            return null;
        }
    }

    /** Where to look for pyproject.toml for a command-line path: the path itself (file or folder), or the working folder. */
    static Path configStart(String arg) {
        try {
            return Paths.get(arg);
        } catch (java.nio.file.InvalidPathException e) {
            return Paths.get("").toAbsolutePath();
        }
    }

    /** The expanded command-line paths: files to load, and whether some argument failed. */
    static final class Inputs {
        final List<ProjectLoader.Input> files = new ArrayList<>();
        boolean failed;
        /** The arguments that named nothing readable, with why (also printed as they are met). */
        final List<ProjectLoader.Problem> problems = new ArrayList<>();
        /** Named files left out by {@code --force-exclude}. */
        int forceExcluded;

        /** Every path named was a file that {@code --force-exclude} left out: nothing to do, and no error. */
        boolean onlyForceExcluded() {
            return files.isEmpty() && !failed && forceExcluded > 0;
        }

        static Inputs expand(List<String> paths, dev.graphmend.passes.config.FileSelection files, boolean forceExclude,
                             PrintStream err) {
            Inputs in = new Inputs();
            List<Path> tree = PathExpander.realPaths(paths);
            for (String arg : paths) {
                if (forceExclude && isExcludedFile(arg, files)) {
                    in.forceExcluded++;
                    continue;
                }
                List<PathExpander.Entry> entries = PathExpander.expand(List.of(arg), files, tree);
                boolean any = false;
                for (PathExpander.Entry e : entries) {
                    if (e.note()) {
                        err.println("graphmend: " + e.path() + ": skipped: " + e.problem());
                    } else if (!e.ok()) {
                        err.println("graphmend: " + e.path() + ": " + e.problem());
                        in.problems.add(new ProjectLoader.Problem(e.path(), e.problem()));
                        in.failed = true;
                    } else {
                        in.files.add(new ProjectLoader.Input(Paths.get(e.path()), e.path()));
                        any = true;
                    }
                }
                if (!any && entries.isEmpty()) {
                    err.println("graphmend: " + arg + ": no Python files in this folder");
                    in.problems.add(new ProjectLoader.Problem(arg, "no Python files in this folder"));
                    in.failed = true;
                }
            }
            return in;
        }

        private static boolean isExcludedFile(String arg, dev.graphmend.passes.config.FileSelection files) {
            try {
                Path p = Paths.get(arg);
                return java.nio.file.Files.isRegularFile(p) && files.excludes(p);
            } catch (java.nio.file.InvalidPathException e) {
                return false; // reported when the argument is expanded
            }
        }
    }

    // ---- text ----

    /**
     * Whether {@code graphmend fix} (with {@code --unsafe-fixes} when the configuration has it)
     * would apply a fix for the diagnostic: a safe fix, or an unsafe one when unsafe fixes are on.
     */
    static boolean fixable(Diagnostic d, boolean unsafeFixes) {
        for (Diagnostic.Fix f : d.fixes()) if (f.safety().isSafe() || unsafeFixes) return true;
        return false;
    }

    /** Fixable only with {@code --unsafe-fixes}: no safe fix, an unsafe one. */
    static boolean fixableWhenUnsafe(Diagnostic d) {
        return !fixable(d, false) && fixable(d, true);
    }

    /**
     * The closing line ruff users know: "[*] N fixable with `graphmend fix` (M more with
     * `--unsafe-fixes`)", or nothing when nothing is fixable.
     */
    static String fixableLine(Map<SourceModule, List<Diagnostic>> found, boolean unsafeFixes) {
        int fixable = 0, more = 0;
        for (List<Diagnostic> l : found.values()) {
            for (Diagnostic d : l) {
                if (fixable(d, unsafeFixes)) fixable++;
                else if (fixableWhenUnsafe(d)) more++;
            }
        }
        if (fixable == 0 && more == 0) return "";
        String fix = unsafeFixes ? "`graphmend fix --unsafe-fixes`" : "`graphmend fix`";
        if (fixable == 0) return "No fixes available (" + more + " with `--unsafe-fixes`).\n";
        return "[*] " + fixable + " fixable with " + fix + (more > 0 ? " (" + more + " more with `--unsafe-fixes`)" : "") + ".\n";
    }

    /**
     * The full format's context, as ruff prints it: the flagged line with its number, and carets
     * under the flagged part (to the line's end when the span goes on).
     */
    static String snippet(LineIndex lines, Diagnostic d, int[] r) {
        int line = r[0] + 1;
        if (line > lines.lineCount()) return "";
        String text = lines.lineText(line).replace('\t', ' ');
        int from = Math.min(r[1], text.length());
        int to = r[2] == r[0] ? Math.min(Math.max(r[3], from + 1), Math.max(text.length(), from + 1)) : Math.max(text.length(), from + 1);
        String num = String.valueOf(line), pad = " ".repeat(num.length());
        return pad + " |\n" + num + " | " + text + "\n" + pad + " | " + " ".repeat(from) + "^".repeat(to - from) + " " + d.code()
                + "\n" + pad + " |\n\n";
    }

    /** --statistics: one line per rule code, most frequent first, with [*] when a fix applies. */
    private static void writeStatistics(Map<SourceModule, List<Diagnostic>> found, AnalysisConfig config, Writer out)
            throws IOException {
        Map<String, int[]> byCode = new java.util.TreeMap<>(); // code -> {count, fixable}
        for (List<Diagnostic> l : found.values()) {
            for (Diagnostic d : l) {
                int[] c = byCode.computeIfAbsent(d.code(), k -> new int[2]);
                c[0]++;
                if (fixable(d, config.unsafeFixes())) c[1]++;
            }
        }
        List<Map.Entry<String, int[]>> rows = new ArrayList<>(byCode.entrySet());
        rows.sort((x, y) -> y.getValue()[0] != x.getValue()[0] ? Integer.compare(y.getValue()[0], x.getValue()[0])
                : x.getKey().compareTo(y.getKey()));
        int width = 1;
        for (var r : rows) width = Math.max(width, String.valueOf(r.getValue()[0]).length());
        for (var r : rows) {
            RuleRegistry.Entry rule = RuleRegistry.byCode(r.getKey());
            String name = rule == null ? "" : rule.info().name();
            out.write(String.format("%" + width + "d\t%s\t%s\t%s%n", r.getValue()[0], r.getKey(),
                    r.getValue()[1] > 0 ? "[*]" : "[ ]", name));
        }
        out.write(fixableLine(found, config.unsafeFixes()));
    }

    private static void writeText(List<SourceModule> modules, dev.graphmend.passes.Findings found, int count,
                                  boolean summary, AnalysisConfig config, int unreadable, boolean full, Writer out)
            throws IOException {
        int filesWith = 0;
        for (SourceModule m : sorted(modules)) {
            List<Diagnostic> ds = found.get(m);
            if (ds.isEmpty()) continue;
            filesWith++;
            LineIndex lines = m.ir().lines();
            for (Diagnostic d : ds) {
                int[] r = Ranges.lsp(lines, d.span());
                // [*]: `graphmend fix` applies a fix for it, as ruff marks its fixable diagnostics
                out.write(m.path() + ":" + (r[0] + 1) + ":" + (r[1] + 1) + ": " + d.code()
                        + (fixable(d, config.unsafeFixes()) ? " [*]" : "") + " [" + d.severity().id() + "] "
                        + d.message() + "\n");
                Diagnostic.Root root = found.attribution().namedRoot(m, d);
                if (root != null && !(root.path().equals(m.path()) && root.line() <= d.span().line()
                        && isSameFunctionRoot(root))) {
                    out.write("    compiled via " + root.description() + " at " + root.path() + ":" + root.line() + "\n");
                }
                if (full) out.write(snippet(lines, d, r));
            }
        }
        if (!summary) return;
        // files that could not be read are counted, so "no graph breaks" never hides that nothing was checked
        String notRead = unreadable == 0 ? "" : "; " + unreadable + " path" + (unreadable == 1 ? "" : "s") + " could not be read (see above)";
        // a torch-version the project's environment, pin or settings gave is named: it decides which fixes are offered
        if (!config.torch().isDefault()) notRead += "; " + config.torch().brief();
        if (count == 0) out.write("No graph breaks found in " + modules.size() + " file" + (modules.size() == 1 ? "" : "s") + notRead + ".\n");
        else out.write("Found " + count + " diagnostic" + (count == 1 ? "" : "s") + " in " + filesWith + " of "
                + modules.size() + " file" + (modules.size() == 1 ? "" : "s") + notRead + ".\n" + fixableLine(found, config.unsafeFixes()));
    }

    /** The --summary table: one line per compile root with breaks. */
    private static void writeReadiness(Map<SourceModule, List<Diagnostic>> found, dev.graphmend.passes.Findings.Attribution attribution,
                                       AnalysisConfig config, Writer out) throws IOException {
        List<dev.graphmend.passes.FullGraphReadiness.Root> roots = dev.graphmend.passes.FullGraphReadiness.of(found, attribution, config, true);
        List<dev.graphmend.passes.FullGraphReadiness.Root> breaking = roots.stream().filter(r -> r.breaks() > 0).toList();
        out.write("\nFull-graph readiness (" + breaking.size() + " of " + roots.size() + " compile root" + (roots.size() == 1 ? "" : "s")
                + " with breaks; a diagnostic counts for every root that reaches it):\n");
        for (var r : breaking) {
            out.write("  " + r.root().path() + ":" + r.root().line() + " " + r.root().description() + ": " + r.sentence() + "\n");
        }
    }

    /** --summary in JSON: one object per compile root, with or without breaks (docs/cli.md). */
    private static JsonArray readinessJson(dev.graphmend.passes.Findings found, AnalysisConfig config) {
        JsonArray roots = new JsonArray();
        for (var r : dev.graphmend.passes.FullGraphReadiness.of(found, found.attribution(), config, true)) {
            JsonObject o = new JsonObject();
            o.addProperty("path", r.root().path());
            o.addProperty("line", r.root().line() - 1); // 0-based, as each diagnostic's root
            o.addProperty("description", r.root().description());
            o.add("compiledIn", DiagnosticJson.modes(r.modes()));
            JsonArray none = new JsonArray();
            r.noneAtItsCalls().forEach(none::add);
            o.add("noneAtItsCalls", none);
            countsJson(o, r.all());
            JsonObject byMode = new JsonObject();
            if (r.eval() != null) byMode.add("eval", countsJson(new JsonObject(), r.eval()));
            if (r.train() != null) byMode.add("train", countsJson(new JsonObject(), r.train()));
            o.add("modes", byMode);
            roots.add(o);
        }
        return roots;
    }

    private static JsonObject countsJson(JsonObject o, dev.graphmend.passes.FullGraphReadiness.Counts c) {
        o.addProperty("breaks", c.breaks());
        o.addProperty("safeFix", c.safe());
        o.addProperty("unsafeFixOnly", c.unsafeOnly());
        o.addProperty("noFix", c.noFix());
        o.addProperty("captured", c.captured());
        o.addProperty("fullgraphAfterFix", c.verdict());
        return o;
    }

    /** A root in the same file above the finding is usually its own function: no need to repeat it. */
    private static boolean isSameFunctionRoot(Diagnostic.Root root) {
        return root.description().startsWith("forward of") || root.description().startsWith("function ");
    }

    private static List<SourceModule> sorted(List<SourceModule> modules) {
        List<SourceModule> s = new ArrayList<>(modules);
        s.sort((a, b) -> PathExpander.CODE_POINT_ORDER.compare(a.path(), b.path()));
        return s;
    }

    // ---- JSON (docs/cli.md) ----

    /** The JSON object; {@code readiness} non-null: with --summary, the per-root "roots" array too. */
    private static void writeJson(List<SourceModule> modules, dev.graphmend.passes.Findings found, int count,
                                  List<ProjectLoader.Problem> problems, TorchVersion torch, AnalysisConfig readiness, Writer out)
            throws IOException {
        JsonObject root = new JsonObject();
        root.addProperty("version", Main.version());
        JsonArray files = new JsonArray();
        int parseErrors = 0;
        for (SourceModule m : sorted(modules)) {
            JsonObject f = new JsonObject();
            f.addProperty("path", m.path());
            JsonArray ds = new JsonArray();
            for (Diagnostic d : found.get(m)) {
                if (d.code().equals("GM000")) parseErrors++;
                JsonObject o = DiagnosticJson.of(d, found.attribution().namedRoot(m, d), found.fixesFor(m, d), m.ir().lines());
                if (readiness != null) o.add("roots", DiagnosticJson.roots(found.attribution().rootsOf(m, d)));
                ds.add(o);
            }
            f.add("diagnostics", ds);
            files.add(f);
        }
        root.add("files", files);
        JsonArray errors = new JsonArray(); // what could not be read or walked, with why
        for (ProjectLoader.Problem p : problems) {
            JsonObject e = new JsonObject();
            e.addProperty("path", p.path());
            e.addProperty("message", p.message());
            errors.add(e);
        }
        root.add("errors", errors);
        JsonObject summary = new JsonObject();
        summary.addProperty("files", modules.size());
        summary.addProperty("diagnostics", count);
        summary.addProperty("parseErrors", parseErrors);
        summary.addProperty("torchVersion", torch.minor());
        summary.addProperty("torchVersionSource", torch.describe());
        root.add("summary", summary);
        if (readiness != null) root.add("roots", readinessJson(found, readiness));
        out.write(new GsonBuilder().serializeNulls().disableHtmlEscaping().setPrettyPrinting().create().toJson(root));
        out.write("\n");
    }

    // ---- SARIF 2.1.0 ----

    private static void writeSarif(List<SourceModule> modules, Map<SourceModule, List<Diagnostic>> found,
                                   List<ProjectLoader.Problem> problems, Writer out) throws IOException {
        JsonObject log = new JsonObject();
        log.addProperty("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
        log.addProperty("version", "2.1.0");
        JsonObject run = new JsonObject();
        JsonObject driver = new JsonObject();
        driver.addProperty("name", "graphmend");
        driver.addProperty("version", Main.version());
        driver.addProperty("informationUri", "https://github.com/graphmend/graphmend-lsp");
        JsonArray rules = new JsonArray();
        Map<String, Integer> ruleIndex = new LinkedHashMap<>();
        for (RuleRegistry.Entry entry : RuleRegistry.ALL) {
            RuleInfo info = entry.info();
            JsonObject r = new JsonObject();
            r.addProperty("id", info.code());
            r.addProperty("name", info.name());
            JsonObject sd = new JsonObject();
            sd.addProperty("text", info.summary());
            r.add("shortDescription", sd);
            r.addProperty("helpUri", info.docsUrl());
            JsonObject dc = new JsonObject();
            dc.addProperty("level", sarifLevel(info.defaultSeverity()));
            r.add("defaultConfiguration", dc);
            ruleIndex.put(info.code(), rules.size());
            rules.add(r);
        }
        driver.add("rules", rules);
        JsonObject tool = new JsonObject();
        tool.add("driver", driver);
        run.add("tool", tool);
        JsonArray results = new JsonArray();
        for (SourceModule m : sorted(modules)) {
            for (Diagnostic d : found.get(m)) {
                JsonObject res = new JsonObject();
                res.addProperty("ruleId", d.code());
                res.addProperty("ruleIndex", ruleIndex.get(d.code()));
                res.addProperty("level", sarifLevel(d.severity()));
                JsonObject msg = new JsonObject();
                msg.addProperty("text", d.message());
                res.add("message", msg);
                int[] r = Ranges.lsp(m.ir().lines(), d.span());
                JsonObject region = new JsonObject();
                region.addProperty("startLine", r[0] + 1);
                region.addProperty("startColumn", r[1] + 1);
                region.addProperty("endLine", r[2] + 1);
                region.addProperty("endColumn", r[3] + 1);
                JsonObject artifact = new JsonObject();
                artifact.addProperty("uri", m.path());
                JsonObject physical = new JsonObject();
                physical.add("artifactLocation", artifact);
                physical.add("region", region);
                JsonObject location = new JsonObject();
                location.add("physicalLocation", physical);
                JsonArray locations = new JsonArray();
                locations.add(location);
                res.add("locations", locations);
                JsonObject props = new JsonObject();
                JsonArray ids = new JsonArray();
                d.dynamoIds().forEach(ids::add);
                props.add("dynamo", ids);
                res.add("properties", props);
                results.add(res);
            }
        }
        run.add("results", results);
        // SARIF's place for what went wrong while running: one error notification per unreadable path
        JsonObject invocation = new JsonObject();
        invocation.addProperty("executionSuccessful", problems.isEmpty());
        JsonArray notes = new JsonArray();
        for (ProjectLoader.Problem p : problems) {
            JsonObject n = new JsonObject();
            n.addProperty("level", "error");
            JsonObject msg = new JsonObject();
            msg.addProperty("text", p.path() + ": " + p.message());
            n.add("message", msg);
            JsonObject loc = new JsonObject(), phys = new JsonObject(), art = new JsonObject();
            art.addProperty("uri", p.path());
            phys.add("artifactLocation", art);
            loc.add("physicalLocation", phys);
            JsonArray locs = new JsonArray();
            locs.add(loc);
            n.add("locations", locs);
            notes.add(n);
        }
        invocation.add("toolExecutionNotifications", notes);
        JsonArray invocations = new JsonArray();
        invocations.add(invocation);
        run.add("invocations", invocations);
        run.addProperty("columnKind", "utf16CodeUnits");
        JsonArray runs = new JsonArray();
        runs.add(run);
        log.add("runs", runs);
        out.write(new GsonBuilder().disableHtmlEscaping().setPrettyPrinting().create().toJson(log));
        out.write("\n");
    }

    private static String sarifLevel(dev.graphmend.passes.model.Severity s) {
        switch (s) {
            case ERROR: return "error";
            case WARNING: return "warning";
            default: return "note";
        }
    }

}
