package dev.graphmend.passes.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.graphmend.passes.model.Severity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code [tool.graphmend]} of a {@code pyproject.toml}. A value of the wrong type is an error with
 * the file and key named, so a typo does not silently leave a rule on. An unknown key is a warning
 * with the known keys listed, and the rest of the table still applies: one misspelt key must not
 * drop a project's {@code ignore} (the language server used to lose the whole table).
 */
public final class ConfigFile {
    private static final ObjectMapper TOML = new TomlMapper();
    private static final Set<String> KEYS = Set.of("torch-version", "select", "extend-select", "ignore", "severity",
            "assume-compiled", "unsafe-fixes", "exclude", "extend-exclude", "per-file-ignores");

    private ConfigFile() {}

    public static final class ConfigException extends Exception {
        public ConfigException(String message) { super(message); }
    }

    /** The nearest pyproject.toml at or above {@code start} (a file or folder), or null. */
    public static Path find(Path start) {
        Path dir = start.toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) dir = dir.getParent();
        for (; dir != null; dir = dir.getParent()) {
            Path p = dir.resolve("pyproject.toml");
            if (Files.isRegularFile(p)) return p;
        }
        return null;
    }

    /** The configuration of the nearest pyproject.toml (defaults when there is none or it has no [tool.graphmend]). */
    public static AnalysisConfig nearest(Path start, List<String> warnings) throws ConfigException {
        Path p = find(start);
        return p == null ? AnalysisConfig.defaults() : load(p, AnalysisConfig.defaults(), warnings);
    }

    /** {@code [tool.graphmend]} of {@code pyproject} over {@code base}; unknown keys are added to {@code warnings}. */
    public static AnalysisConfig load(Path pyproject, AnalysisConfig base, List<String> warnings) throws ConfigException {
        String text;
        try {
            text = Files.readString(pyproject);
        } catch (IOException e) {
            throw new ConfigException(pyproject + ": cannot read: " + e.getMessage());
        }
        JsonNode root;
        try {
            root = TOML.readTree(text);
        } catch (IOException e) {
            throw new ConfigException(pyproject + ": not valid TOML: " + firstLine(e.getMessage()));
        }
        JsonNode section = root == null ? null : root.path("tool").get("graphmend");
        if (section == null) return base;
        // relative file patterns (exclude, per-file-ignores) are taken from the pyproject.toml's folder
        AnalysisConfig rooted = base.withFiles(base.files().withRoot(pyproject.toAbsolutePath().getParent()));
        return apply(section, rooted, pyproject + " [tool.graphmend]", warnings);
    }

    /** A TOML file as a tree (lock files and pyproject.toml's other tables, {@link TorchPins}); null when it is not valid TOML. */
    static JsonNode readToml(Path file) throws IOException {
        try {
            return TOML.readTree(Files.readString(file));
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            return null;
        }
    }

    /** Settings written as TOML key/values (e.g. {@code torch-version = "2.11"}), applied over {@code base}. */
    public static AnalysisConfig fromToml(String keyValues, AnalysisConfig base, String where, List<String> warnings)
            throws ConfigException {
        try {
            return apply(TOML.readTree(keyValues), base, where, warnings);
        } catch (IOException e) {
            throw new ConfigException(where + ": not valid TOML: " + firstLine(e.getMessage()));
        }
    }

    /**
     * Applies a settings object: TOML's kebab-case keys, or the camelCase ones editors send
     * ({@code torchVersion}, {@code assumeCompiled}, {@code unsafeFixes}).
     */
    public static AnalysisConfig apply(JsonNode section, AnalysisConfig base, String where, List<String> warnings)
            throws ConfigException {
        if (section == null || section.isNull()) return base;
        if (!section.isObject()) throw new ConfigException(where + ": expected a table of settings");
        AnalysisConfig c = base;
        for (Iterator<Map.Entry<String, JsonNode>> it = section.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = kebab(e.getKey());
            JsonNode v = e.getValue();
            if (!KEYS.contains(key)) {
                warnings.add(where + ": unknown key '" + e.getKey() + "' ignored (known: " + String.join(", ", sorted(KEYS)) + ")");
                continue;
            }
            try {
                switch (key) {
                    case "torch-version": c = c.withTorchVersion(TorchVersion.configured(string(v, key), "torch-version in " + where)); break;
                    case "select": c = c.withSelect(codes(v, key)); break;
                    case "ignore": c = c.withIgnore(codes(v, key)); break;
                    case "assume-compiled": c = c.withAssumeCompiled(AnalysisConfig.AssumeCompiled.parse(string(v, key))); break;
                    case "unsafe-fixes":
                        if (!v.isBoolean()) throw new IllegalArgumentException("unsafe-fixes must be true or false");
                        c = c.withUnsafeFixes(v.booleanValue());
                        break;
                    case "severity": c = c.withSeverity(severities(v)); break;
                    case "extend-select": c = c.withExtendSelect(codes(v, key)); break;
                    case "exclude": c = c.withFiles(c.files().withExclude(patterns(v, key))); break;
                    case "extend-exclude": c = c.withFiles(c.files().withExtendExclude(patterns(v, key))); break;
                    case "per-file-ignores": c = c.withFiles(c.files().withPerFileIgnores(perFileIgnores(v))); break;
                    default: break;
                }
            } catch (IllegalArgumentException ex) {
                throw new ConfigException(where + ": " + ex.getMessage());
            }
        }
        return c;
    }

    /** TOML and editor key spellings to one: {@code torchVersion}, {@code torch_version} → {@code torch-version}. */
    public static String kebab(String k) {
        StringBuilder b = new StringBuilder();
        for (char ch : k.toCharArray()) {
            if (Character.isUpperCase(ch)) b.append('-').append(Character.toLowerCase(ch));
            else b.append(ch == '_' ? '-' : ch);
        }
        return b.toString();
    }

    private static String string(JsonNode v, String key) {
        if (!v.isTextual()) throw new IllegalArgumentException(key + " must be a string");
        return v.textValue();
    }

    private static List<String> codes(JsonNode v, String key) {
        List<String> out = new ArrayList<>();
        if (v.isTextual()) {
            out.add(v.textValue().trim().toUpperCase(java.util.Locale.ROOT));
            return out;
        }
        if (!v.isArray()) throw new IllegalArgumentException(key + " must be a list of rule codes, e.g. [\"GM101\"]");
        for (JsonNode x : v) {
            if (!x.isTextual()) throw new IllegalArgumentException(key + " must be a list of rule codes, e.g. [\"GM101\"]");
            String code = x.textValue().trim().toUpperCase(java.util.Locale.ROOT);
            if (!code.startsWith("GM")) throw new IllegalArgumentException(key + ": '" + x.textValue() + "' is not a GraphMend rule code or prefix");
            out.add(code);
        }
        return out;
    }

    private static List<String> patterns(JsonNode v, String key) {
        List<String> out = new ArrayList<>();
        if (!v.isArray()) throw new IllegalArgumentException(key + " must be a list of glob patterns, e.g. [\"tests/**\"]");
        for (JsonNode x : v) {
            if (!x.isTextual()) throw new IllegalArgumentException(key + " must be a list of glob patterns, e.g. [\"tests/**\"]");
            out.add(x.textValue());
        }
        return out;
    }

    private static Map<String, List<String>> perFileIgnores(JsonNode v) {
        if (!v.isObject()) throw new IllegalArgumentException("per-file-ignores must be a table, e.g. { \"tests/*\" = [\"GM102\"] }");
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            m.put(e.getKey(), codes(e.getValue(), "per-file-ignores of \"" + e.getKey() + "\""));
        }
        return m;
    }

    private static Map<String, Severity> severities(JsonNode v) {
        if (!v.isObject()) throw new IllegalArgumentException("severity must be a table, e.g. { GM2 = \"warning\" }");
        Map<String, Severity> m = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            Severity s = e.getValue().isTextual() ? Severity.parse(e.getValue().textValue()) : null;
            if (s == null) {
                throw new IllegalArgumentException("severity of " + e.getKey() + " must be error, warning, information or hint");
            }
            m.put(e.getKey().toUpperCase(java.util.Locale.ROOT), s);
        }
        return m;
    }

    private static List<String> sorted(Set<String> s) {
        List<String> l = new ArrayList<>(s);
        l.sort(null);
        return l;
    }

    private static String firstLine(String s) {
        if (s == null) return "";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
