package dev.graphmend.cli;

import dev.graphmend.passes.config.AnalysisConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The options {@code check} and {@code fix} share (SPEC section 5), parsed by hand: a dozen flags
 * of one shape ({@code --name value} or {@code --name=value}) do not justify a CLI library in the
 * shaded jar. Values of {@code --select}/{@code --ignore} are comma-separated codes or prefixes.
 */
final class CheckOptions {
    String format = "text";
    List<String> select;
    List<String> ignore;
    String torchVersion;
    String assumeCompiled;
    boolean unsafeFixes;
    boolean diff;
    boolean noConfig;
    final List<String> paths = new ArrayList<>();

    /** Thrown for a usage error; the message is shown to the user. */
    static final class UsageException extends Exception {
        UsageException(String message) { super(message); }
    }

    static CheckOptions parse(List<String> args, boolean fix) throws UsageException {
        CheckOptions o = new CheckOptions();
        boolean onlyPaths = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (onlyPaths || !a.startsWith("--")) {
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
                case "--unsafe-fixes": o.unsafeFixes = true; continue;
                case "--diff":
                    if (!fix) throw new UsageException("--diff belongs to 'fix'");
                    o.diff = true;
                    continue;
                case "--no-config": o.noConfig = true; continue;
                default: break;
            }
            if (value == null) {
                if (i + 1 >= args.size()) throw new UsageException(name + " needs a value");
                value = args.get(++i);
            }
            switch (name) {
                case "--format":
                    if (fix) throw new UsageException("--format belongs to 'check'");
                    if (!List.of("text", "json", "sarif").contains(value)) {
                        throw new UsageException("--format must be text, json or sarif, not '" + value + "'");
                    }
                    o.format = value;
                    break;
                case "--select": o.select = codes(value); break;
                case "--ignore": o.ignore = codes(value); break;
                case "--torch-version":
                    try {
                        AnalysisConfig.parseVersion(value);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--" + e.getMessage());
                    }
                    o.torchVersion = value;
                    break;
                case "--assume-compiled":
                    try {
                        AnalysisConfig.AssumeCompiled.parse(value);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--" + e.getMessage());
                    }
                    o.assumeCompiled = value;
                    break;
                default:
                    throw new UsageException("unknown option '" + name + "'");
            }
        }
        if (o.paths.isEmpty()) throw new UsageException("no PATH given");
        return o;
    }

    private static List<String> codes(String value) {
        List<String> out = new ArrayList<>();
        for (String c : value.split(",")) {
            c = c.trim().toUpperCase(java.util.Locale.ROOT);
            if (!c.isEmpty()) out.add(c);
        }
        return out;
    }

    /** The configuration: defaults, then the nearest pyproject.toml's [tool.graphmend], then these flags. */
    AnalysisConfig config(AnalysisConfig fromFile) {
        AnalysisConfig c = fromFile;
        if (select != null) c = c.withSelect(select);
        if (ignore != null) c = c.withIgnore(ignore);
        if (torchVersion != null) c = c.withTorchVersion(torchVersion);
        if (assumeCompiled != null) c = c.withAssumeCompiled(AnalysisConfig.AssumeCompiled.parse(assumeCompiled));
        if (unsafeFixes) c = c.withUnsafeFixes(true);
        return c;
    }

    @Override public String toString() {
        return Arrays.asList(format, select, ignore, torchVersion, assumeCompiled, paths).toString();
    }
}
