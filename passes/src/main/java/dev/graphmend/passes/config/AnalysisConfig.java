package dev.graphmend.passes.config;

import dev.graphmend.passes.model.Severity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The configuration keys of docs/configuration.md, after merging {@code pyproject.toml}, editor
 * settings and command-line flags. Immutable; {@code with*} methods give modified copies.
 *
 * @param torch the torch release the rules follow, and where it came from ({@link TorchVersion})
 * @param select rule codes or prefixes that are enabled (empty: all)
 * @param ignore rule codes or prefixes that are disabled (wins over select)
 * @param severity severity per code or prefix (the longest matching key wins)
 * @param assumeCompiled whether every nn.Module forward is a compile root
 * @param unsafeFixes whether fix-all includes unsafe fixes
 * @param files which files a walk reads, and per-file ignores ({@link FileSelection})
 */
public record AnalysisConfig(TorchVersion torch, List<String> select, List<String> ignore,
                             Map<String, Severity> severity, AssumeCompiled assumeCompiled, boolean unsafeFixes,
                             FileSelection files) {

    /** The newest torch release whose behaviour the rules encode. */
    public static final String NEWEST_TORCH = "2.15";

    public enum AssumeCompiled {
        MODULE_FORWARD("module-forward"), EXPLICIT("explicit");

        public final String id;

        AssumeCompiled(String id) { this.id = id; }

        public static AssumeCompiled parse(String s) {
            for (AssumeCompiled a : values()) if (a.id.equals(s)) return a;
            throw new IllegalArgumentException("assume-compiled must be \"module-forward\" or \"explicit\", not \"" + s + "\"");
        }
    }

    public AnalysisConfig {
        select = List.copyOf(select);
        ignore = List.copyOf(ignore);
        severity = Map.copyOf(severity);
        if (files == null) files = FileSelection.defaults();
        if (torch == null) throw new IllegalArgumentException("a configuration needs a torch version");
    }

    public static AnalysisConfig defaults() {
        return new AnalysisConfig(TorchVersion.newest(), List.of(), List.of(), Map.of(), AssumeCompiled.MODULE_FORWARD, false,
                FileSelection.defaults());
    }

    public AnalysisConfig withFiles(FileSelection f) {
        return new AnalysisConfig(torch, select, ignore, severity, assumeCompiled, unsafeFixes, f);
    }

    /** {@code extend-select}: added to {@code select}; with no select (every rule) there is nothing to add. */
    public AnalysisConfig withExtendSelect(List<String> more) {
        if (select.isEmpty() || more.isEmpty()) return this;
        List<String> all = new java.util.ArrayList<>(select);
        all.addAll(more);
        return withSelect(all);
    }

    public boolean isEnabled(String code) {
        for (String i : ignore) if (code.startsWith(i)) return false;
        if (select.isEmpty()) return true;
        for (String s : select) if (code.startsWith(s)) return true;
        return false;
    }

    public Severity severityOf(String code, Severity dflt) {
        String best = null;
        for (String k : severity.keySet()) {
            if (code.startsWith(k) && (best == null || k.length() > best.length())) best = k;
        }
        return best == null ? dflt : severity.get(best);
    }

    /** The version the rules follow: {@code "2.11"}, {@code "2.11.0+cpu"} (what {@link #torch()} says). */
    public String torchVersion() {
        return torch.version();
    }

    /** True when the configured torch is older than {@code major.minor}. */
    public boolean torchBefore(int major, int minor) {
        int[] v = parseVersion(torch.version());
        return v[0] < major || (v[0] == major && v[1] < minor);
    }

    /** True when the configured torch is older than {@code version} ("2.15"); false for a null version. */
    public boolean torchBefore(String version) {
        if (version == null) return false;
        int[] v = parseVersion(version);
        return torchBefore(v[0], v[1]);
    }

    /** "2.11", "2.11.0", "2.11.0+cpu" → {2, 11}; anything else is an error with a clear message. */
    public static int[] parseVersion(String v) {
        String s = v == null ? "" : v.trim();
        int plus = s.indexOf('+');
        if (plus >= 0) s = s.substring(0, plus);
        String[] parts = s.split("\\.");
        try {
            if (parts.length >= 2) return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new IllegalArgumentException("torch-version must look like \"2.11\", not \"" + v + "\"");
    }

    /** A version set without saying where (tests, programs): its source is "torch-version". */
    public AnalysisConfig withTorchVersion(String v) {
        return withTorchVersion(TorchVersion.configured(v, "torch-version"));
    }

    public AnalysisConfig withTorchVersion(TorchVersion t) {
        return new AnalysisConfig(t, select, ignore, severity, assumeCompiled, unsafeFixes, files);
    }

    public AnalysisConfig withSelect(List<String> s) {
        return new AnalysisConfig(torch, s, ignore, severity, assumeCompiled, unsafeFixes, files);
    }

    public AnalysisConfig withIgnore(List<String> i) {
        return new AnalysisConfig(torch, select, i, severity, assumeCompiled, unsafeFixes, files);
    }

    public AnalysisConfig withSeverity(Map<String, Severity> s) {
        Map<String, Severity> m = new LinkedHashMap<>(severity);
        m.putAll(s);
        return new AnalysisConfig(torch, select, ignore, m, assumeCompiled, unsafeFixes, files);
    }

    public AnalysisConfig withAssumeCompiled(AssumeCompiled a) {
        return new AnalysisConfig(torch, select, ignore, severity, a, unsafeFixes, files);
    }

    public AnalysisConfig withUnsafeFixes(boolean u) {
        return new AnalysisConfig(torch, select, ignore, severity, assumeCompiled, u, files);
    }
}
