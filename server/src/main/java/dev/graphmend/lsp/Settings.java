package dev.graphmend.lsp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.config.ConfigFile;
import dev.graphmend.passes.config.TorchVersionResolver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The configuration layers of docs/configuration.md as the server sees them: defaults, then the
 * {@code [tool.graphmend]} table of the pyproject.toml nearest to the document, then the editor's
 * settings ({@code initializationOptions}, then {@code workspace/configuration} section
 * {@code graphmend} or the settings of {@code workspace/didChangeConfiguration}).
 *
 * <p>Editor settings may hold keys that are not analysis settings (VS Code puts
 * {@code graphmend.trace.server} in the same section, an extension its own options); those are
 * skipped. A layer with an error (a value of the wrong type) is skipped as a whole and the error
 * reported, so a typo in one place does not switch the analysis off; an unknown key in a
 * pyproject.toml is a warning and the rest of its table applies.
 *
 * <p>When no layer names a {@code torch-version}, the project's torch is found
 * ({@link TorchVersionResolver}: the editor's {@code interpreter} setting, then the process's
 * {@code VIRTUAL_ENV}, a {@code .venv} beside the project, ...); a release older than any the rules
 * were observed on is a warning.
 */
final class Settings {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> KEYS = Set.of("torch-version", "select", "ignore", "severity", "assume-compiled",
            "unsafe-fixes");

    /** A configuration, the errors met while building it (their layers skipped), and the warnings (unknown keys, ignored). */
    record Resolved(AnalysisConfig config, List<String> errors, List<String> warnings) {}

    private volatile JsonNode initializationOptions;
    private volatile JsonNode editor;
    /** The python executable the editor selected ({@code interpreter}), per layer; null when unset. */
    private volatile String initializationInterpreter, editorInterpreter;
    private final TorchVersionResolver torchVersions;
    private final java.util.function.Supplier<List<Path>> folders;

    /**
     * @param environment the process environment ({@code VIRTUAL_ENV}, {@code GRAPHMEND_PYTHON_PATH})
     * @param folders the workspace folders: a file's project is its folder when no pyproject.toml is above it
     */
    Settings(Map<String, String> environment, java.util.function.Supplier<List<Path>> folders) {
        this.torchVersions = new TorchVersionResolver(environment);
        this.folders = folders;
    }

    void setInitializationOptions(Object gsonValue) {
        JsonNode n = toJackson(gsonValue);
        initializationOptions = analysisKeys(n);
        initializationInterpreter = interpreter(n);
    }

    /** The editor's settings: the {@code graphmend} section itself, or an object holding one. */
    void setEditorSettings(Object gsonValue) {
        JsonNode n = toJackson(gsonValue);
        if (n != null && n.isObject() && n.has("graphmend") && n.get("graphmend").isObject()) n = n.get("graphmend");
        editor = analysisKeys(n);
        editorInterpreter = interpreter(n);
    }

    /** The interpreter the editor selected: its settings' over its initializationOptions'; null when neither says. */
    String interpreter() {
        String e = editorInterpreter;
        return e != null ? e : initializationInterpreter;
    }

    /** {@code interpreter}: a path, or a list whose first element is the path (as ruff-vscode sends it). */
    static String interpreter(JsonNode settings) {
        JsonNode v = settings == null || !settings.isObject() ? null : settings.get("interpreter");
        if (v != null && v.isArray()) v = v.size() == 0 ? null : v.get(0);
        return v != null && v.isTextual() && !v.textValue().isBlank() ? v.textValue() : null;
    }

    Resolved configFor(Path file) {
        List<String> errors = new ArrayList<>(), warnings = new ArrayList<>();
        AnalysisConfig c = AnalysisConfig.defaults();
        Path pyproject = file == null ? null : ConfigFile.find(file.getParent() == null ? file : file.getParent());
        if (pyproject != null) {
            FileLayer l = fileLayer(pyproject);
            warnings.addAll(l.warnings());
            if (l.error() != null) errors.add(l.error());
            else c = l.config();
        }
        c = layer(c, initializationOptions, "initializationOptions", errors, warnings);
        c = layer(c, editor, "settings (graphmend)", errors, warnings);
        c = torchVersions.resolve(c, projectRoot(file, pyproject), interpreter());
        String old = c.torch().olderThanObservedWarning();
        if (old != null) warnings.add(old);
        return new Resolved(c, errors, warnings);
    }

    /** A file's project: its pyproject.toml's folder, else the workspace folder holding it, else its own folder. */
    private Path projectRoot(Path file, Path pyproject) {
        if (pyproject != null) return pyproject.getParent();
        List<Path> fs = folders.get();
        if (file == null) return fs.isEmpty() ? null : fs.get(0);
        for (Path f : fs) if (file.startsWith(f)) return f;
        return file.getParent();
    }

    /** A pyproject.toml's layer over the defaults, or its error; read again only when the file changes. */
    private record FileLayer(Object stamp, AnalysisConfig config, String error, List<String> warnings) {}

    private final Map<Path, FileLayer> files = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Forgets the files read, for when the client reports a pyproject.toml change (a change within
     * one mtime tick), and the torch versions found (a lock file, a requirements file or the
     * interpreter may have changed).
     */
    void forgetFiles() {
        files.clear();
        torchVersions.forget();
    }

    private FileLayer fileLayer(Path pyproject) {
        Object stamp;
        try {
            var attrs = java.nio.file.Files.readAttributes(pyproject, java.nio.file.attribute.BasicFileAttributes.class);
            stamp = List.of(attrs.lastModifiedTime(), attrs.size());
        } catch (java.io.IOException e) {
            stamp = null; // unreadable: load reports why
        }
        FileLayer cached = files.get(pyproject);
        if (cached != null && stamp != null && stamp.equals(cached.stamp())) return cached;
        FileLayer l;
        List<String> warnings = new ArrayList<>();
        try {
            l = new FileLayer(stamp, ConfigFile.load(pyproject, AnalysisConfig.defaults(), warnings), null, List.copyOf(warnings));
        } catch (ConfigFile.ConfigException e) {
            l = new FileLayer(stamp, null, e.getMessage(), List.copyOf(warnings));
        }
        if (stamp != null) files.put(pyproject, l);
        return l;
    }

    private static AnalysisConfig layer(AnalysisConfig base, JsonNode settings, String where, List<String> errors,
                                        List<String> warnings) {
        if (settings == null || settings.isEmpty()) return base;
        try {
            return ConfigFile.apply(settings, base, where, warnings);
        } catch (ConfigFile.ConfigException e) {
            errors.add(e.getMessage());
            return base;
        }
    }

    /** The analysis keys of a settings object, nulls left out (an unset editor setting is null). */
    static JsonNode analysisKeys(JsonNode n) {
        if (n == null || !n.isObject()) return null;
        ObjectNode out = JSON.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue() == null || e.getValue().isNull()) continue;
            if (KEYS.contains(dev.graphmend.passes.config.ConfigFile.kebab(e.getKey()))) out.set(e.getKey(), e.getValue());
        }
        return out;
    }

    static JsonNode toJackson(Object gsonValue) {
        if (gsonValue == null) return null;
        try {
            String json = gsonValue instanceof com.google.gson.JsonElement
                    ? gsonValue.toString() : new com.google.gson.Gson().toJson(gsonValue);
            return JSON.readTree(json);
        } catch (Exception e) {
            return null;
        }
    }
}
