package dev.graphmend.cli;

import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.registry.RuleRegistry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The options {@code check} and {@code fix} share (docs/cli.md), parsed by hand: a dozen flags
 * of one shape ({@code --name value} or {@code --name=value}) do not justify a CLI library in the
 * shaded jar. Values of {@code --select}/{@code --ignore} are comma-separated codes or prefixes.
 * Short flags are ruff's: {@code -h}, {@code -e} ({@code --exit-zero}), {@code -q} ({@code --quiet}).
 */
final class CheckOptions {
    /** full (default: each diagnostic with its source line), text (concise: one line each), json or sarif. */
    String format = "full";
    List<String> select;
    List<String> ignore;
    List<String> extendSelect;
    List<String> exclude;
    final List<String> extendExclude = new ArrayList<>();
    final java.util.Map<String, List<String>> perFileIgnores = new java.util.LinkedHashMap<>();
    String torchVersion;
    String assumeCompiled;
    boolean unsafeFixes;
    boolean diff;
    boolean noConfig;
    /** Exclusions apply to files named on the command line too (pre-commit names every file). */
    boolean forceExclude;
    boolean exitZero;
    boolean quiet;
    /** --verbose: say on stderr where the torch version came from. */
    boolean verbose;
    /** --statistics: per rule code, how many and whether fixable, instead of each diagnostic (text only). */
    boolean statistics;
    /** --stdin-filename: the path shown for standard input ({@code -}), whose folder finds the pyproject.toml. */
    String stdinFilename;
    /** --summary: the per-root full-graph readiness table after the diagnostics (text), or a "roots" array (JSON). */
    boolean summary;
    /** -h/--help was given: print {@link #usage} and do nothing else. */
    boolean help;
    final List<String> paths = new ArrayList<>();

    /** Thrown for a usage error; the message is shown to the user. */
    static final class UsageException extends Exception {
        UsageException(String message) { super(message); }
    }

    /** The usage of {@code check} or {@code fix}: every flag it accepts. */
    static String usage(boolean fix) {
        String common = ""
                + "  --select CODES          enable only these rule codes or prefixes (comma-separated, e.g. GM1,GM201)\n"
                + "  --extend-select CODES   add these codes or prefixes to the selected ones\n"
                + "  --ignore CODES          disable these rule codes or prefixes (wins over --select)\n"
                + "  --per-file-ignores GLOB:CODES  do not report these codes in the files the glob matches\n"
                + "                          (repeatable), e.g. 'tests/**:GM102'\n"
                + "  --exclude GLOBS         files and folders a walk leaves out, replacing the default folders\n"
                + "                          (.git, .venv, node_modules, build, ...; comma-separated globs)\n"
                + "  --extend-exclude GLOBS  files and folders a walk leaves out, besides the defaults\n"
                + "  --torch-version X.Y     the torch release the rules follow, e.g. 2.11 (default: the torch\n"
                + "                          installed in the project's environment, or its pin, else the newest)\n"
                + "  --assume-compiled MODE  module-forward (nn.Module.forward counts as compiled) or explicit\n"
                + (fix ? "  --unsafe-fixes          also apply the fixes that may change behaviour\n"
                        : "  --unsafe-fixes          offer the fixes that may change behaviour as applicable\n")
                + "  --no-config             ignore pyproject.toml's [tool.graphmend]\n"
                + "  -v, --verbose           say on stderr which torch-version the rules follow and where it came from\n"
                + "  --force-exclude         apply exclude/extend-exclude to files named here too\n"
                + "  -e, --exit-zero         exit 0 even when diagnostics remain (2 on errors still)\n";
        if (fix) {
            return "usage: graphmend fix [options] PATH...\n"
                    + "  Applies the legal fixes to a fixed point and rewrites the files (atomically, keeping\n"
                    + "  each file's encoding, line endings, mode and owner; read-only files are refused).\n"
                    + "\noptions:\n"
                    + "  --diff                  print a unified diff (git apply takes it) and write nothing\n"
                    + common
                    + "  -q, --quiet             no summary line\n"
                    + "  -h, --help              show this help\n"
                    + "\nexit status: 0 nothing remains (--diff: nothing would change), 1 otherwise, 2 usage or I/O error\n";
        }
        return "usage: graphmend check [options] PATH...\n"
                + "  Reports the graph breaks in the Python files and folders given (one project);\n"
                + "  PATH '-' reads one file from standard input.\n"
                + "\noptions:\n"
                + "  --output-format FORMAT  full (default: each diagnostic with its source line underlined),\n"
                + "                          concise (one line each; also --format text), json or sarif\n"
                + "  --summary               per compile root: breaks left, how many a safe or an unsafe fix\n"
                + "                          removes, and whether fullgraph=True can succeed after `fix`\n"
                + "                          (with json: a \"roots\" array)\n"
                + common
                + "  --statistics            per rule code: how many, and [*] when `fix` applies a fix\n"
                + "  --stdin-filename PATH   the name to show for standard input ('-'); its folder finds pyproject.toml\n"
                + "  -q, --quiet             print the diagnostics only: no summary, no progress\n"
                + "  -h, --help              show this help\n"
                + "\nexit status: 0 nothing found, 1 diagnostics found, 2 usage or I/O error\n";
    }

    static CheckOptions parse(List<String> args, boolean fix) throws UsageException {
        CheckOptions o = new CheckOptions();
        boolean onlyPaths = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            // "-" alone is standard input (check only)
            if (onlyPaths || !a.startsWith("-") || a.equals("-")) {
                o.paths.add(a);
                continue;
            }
            if (a.equals("--")) {
                onlyPaths = true;
                continue;
            }
            String name = a, value = null;
            int eq = a.indexOf('=');
            if (eq > 0) {
                name = a.substring(0, eq);
                value = a.substring(eq + 1);
            }
            switch (name) {
                case "-h": case "--help":
                    // help wins over everything else on the line, as in ruff
                    o.help = true;
                    return o;
                case "--unsafe-fixes": o.unsafeFixes = true; continue;
                case "--diff":
                    if (!fix) throw new UsageException("--diff belongs to 'fix'");
                    o.diff = true;
                    continue;
                case "--no-config": o.noConfig = true; continue;
                case "--force-exclude": o.forceExclude = true; continue;
                case "-e": case "--exit-zero": o.exitZero = true; continue;
                case "-q": case "--quiet": o.quiet = true; continue;
                case "-v": case "--verbose": o.verbose = true; continue;
                case "--statistics":
                    if (fix) throw new UsageException("--statistics belongs to 'check'");
                    o.statistics = true;
                    continue;
                case "--summary":
                    if (fix) throw new UsageException("--summary belongs to 'check'");
                    o.summary = true;
                    continue;
                default: break;
            }
            if (!List.of("--format", "--output-format", "--select", "--ignore", "--torch-version", "--assume-compiled", "--stdin-filename",
                    "--extend-select", "--exclude", "--extend-exclude", "--per-file-ignores").contains(name)) {
                throw new UsageException("unknown option '" + name + "'");
            }
            if (value == null) {
                if (i + 1 >= args.size()) throw new UsageException(name + " needs a value");
                value = args.get(++i);
            }
            switch (name) {
                case "--format": case "--output-format":
                    if (fix) throw new UsageException(name + " belongs to 'check'");
                    if (!List.of("full", "concise", "text", "json", "sarif").contains(value)) {
                        throw new UsageException(name + " must be full, concise, json or sarif, not '" + value + "'");
                    }
                    // text is the old name of concise (one line per diagnostic)
                    o.format = value.equals("concise") ? "text" : value;
                    break;
                case "--select": o.select = codes(name, value); break;
                case "--extend-select": o.extendSelect = codes(name, value); break;
                case "--exclude": o.exclude = globs(value); break;
                case "--extend-exclude": o.extendExclude.addAll(globs(value)); break;
                case "--per-file-ignores": {
                    int colon = value.lastIndexOf(':');
                    if (colon <= 0 || colon == value.length() - 1) {
                        throw new UsageException("--per-file-ignores takes GLOB:CODES, e.g. 'tests/**:GM102', not '" + value + "'");
                    }
                    o.perFileIgnores.put(value.substring(0, colon), codes(name, value.substring(colon + 1)));
                    break;
                }
                case "--stdin-filename":
                    if (fix) throw new UsageException("--stdin-filename belongs to 'check'");
                    o.stdinFilename = value;
                    break;
                case "--ignore": o.ignore = codes(name, value); break;
                case "--torch-version":
                    try {
                        AnalysisConfig.parseVersion(value);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--" + e.getMessage());
                    }
                    o.torchVersion = value;
                    break;
                default: // --assume-compiled
                    try {
                        AnalysisConfig.AssumeCompiled.parse(value);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--" + e.getMessage());
                    }
                    o.assumeCompiled = value;
                    break;
            }
        }
        if (o.paths.isEmpty()) throw new UsageException("no PATH given");
        if (o.paths.contains("-") && (o.paths.size() > 1 || fix)) {
            throw new UsageException(fix ? "'fix' does not read standard input; give the file" : "'-' (standard input) must be the only PATH");
        }
        boolean text = o.format.equals("text") || o.format.equals("full");
        if (o.summary && !text && !o.format.equals("json")) throw new UsageException("--summary is for the text and JSON formats");
        if (o.statistics && !text) throw new UsageException("--statistics is for the text formats");
        if (o.statistics && o.summary) throw new UsageException("--statistics and --summary cannot be combined");
        return o;
    }

    /** The codes the engine knows: GM000 (syntax errors) and each rule's. */
    static List<String> knownCodes() {
        return RuleRegistry.codes();
    }

    /**
     * Comma-separated codes or prefixes, each of which must name at least one known code: a typo
     * such as GM1O1 would otherwise select nothing, or ignore nothing, without a word.
     */
    private static List<String> codes(String option, String value) throws UsageException {
        List<String> known = knownCodes(), out = new ArrayList<>();
        for (String c : value.split(",")) {
            String code = c.trim().toUpperCase(java.util.Locale.ROOT);
            if (code.isEmpty()) continue;
            if (known.stream().noneMatch(k -> k.startsWith(code))) {
                throw new UsageException(option + ": unknown rule code '" + c.trim() + "' (known codes: "
                        + String.join(", ", known) + "; a prefix such as GM1 selects a group)");
            }
            out.add(code);
        }
        return out;
    }

    private static List<String> globs(String value) {
        List<String> out = new ArrayList<>();
        for (String g : value.split(",")) if (!g.isBlank()) out.add(g.trim());
        return out;
    }

    /** The configuration: defaults, then the nearest pyproject.toml's [tool.graphmend], then these flags. */
    AnalysisConfig config(AnalysisConfig fromFile) {
        AnalysisConfig c = fromFile;
        if (select != null) c = c.withSelect(select);
        if (extendSelect != null) c = c.withExtendSelect(extendSelect);
        var files = c.files();
        if (exclude != null) files = files.withExclude(exclude);
        if (!extendExclude.isEmpty()) files = files.withExtendExclude(extendExclude);
        if (!perFileIgnores.isEmpty()) files = files.withPerFileIgnores(perFileIgnores);
        c = c.withFiles(files);
        if (ignore != null) c = c.withIgnore(ignore);
        if (torchVersion != null) c = c.withTorchVersion(dev.graphmend.passes.config.TorchVersion.configured(torchVersion, "--torch-version"));
        if (assumeCompiled != null) c = c.withAssumeCompiled(AnalysisConfig.AssumeCompiled.parse(assumeCompiled));
        if (unsafeFixes) c = c.withUnsafeFixes(true);
        return c;
    }

    @Override public String toString() {
        return Arrays.asList(format, select, ignore, torchVersion, assumeCompiled, paths).toString();
    }
}
