package dev.graphmend.passes.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The torch a project pins, for when no environment of it has torch installed
 * (docs/configuration.md, "Where the torch version comes from"): a lock file's resolved version,
 * then a {@code requirements*.txt} line, then {@code [project] dependencies}. A specifier gives
 * its {@code ==} version, else its lower bound, as ruff reads {@code requires-python}: the rules
 * then assume the oldest torch the project admits, so no fix is offered that it may not run.
 */
final class TorchPins {
    private TorchPins() {}

    /** The lock files read, in this order, in the project's folder and the folders above it. */
    static final List<String> LOCK_FILES = List.of("uv.lock", "poetry.lock", "pdm.lock");

    /** {@code name [extras] rest}: PEP 508's start; the rest holds the specifiers (or {@code @ url}). */
    private static final Pattern REQUIREMENT = Pattern.compile("\\s*([A-Za-z0-9][A-Za-z0-9._-]*)\\s*(?:\\[[^\\]]*\\])?\\s*(.*)");
    private static final Pattern SPECIFIER = Pattern.compile("\\s*(===|==|~=|!=|>=|<=|>|<)\\s*([^\\s,;]+)\\s*");

    /** The pin of the project whose folder is {@code root}, or null. */
    static TorchVersion find(Path root, List<Path> foldersUp) {
        for (Path dir : foldersUp) {
            for (String name : LOCK_FILES) {
                TorchVersion v = inLockFile(dir.resolve(name));
                if (v != null) return v;
            }
        }
        for (Path req : requirementFiles(root)) {
            TorchVersion v = inRequirements(req);
            if (v != null) return v;
        }
        return inProjectDependencies(root.resolve("pyproject.toml"));
    }

    /** A {@code [[package]]} table with {@code name = "torch"} and its {@code version}. */
    static TorchVersion inLockFile(Path lock) {
        if (!Files.isRegularFile(lock)) return null;
        JsonNode root;
        try {
            root = ConfigFile.readToml(lock);
        } catch (IOException | UncheckedIOException e) {
            return null;
        }
        if (root == null) return null;
        for (JsonNode p : root.path("package")) {
            if (!isTorch(p.path("name").asText(""))) continue;
            String version = p.path("version").asText("");
            String minor = minor(version);
            if (minor != null) return new TorchVersion(minor, TorchVersion.Origin.PINNED, "pin torch " + version + " in " + lock, null);
        }
        return null;
    }

    /** {@code requirements.txt} first, then the other {@code requirements*.txt} of the folder by name. */
    static List<Path> requirementFiles(Path root) {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(root, "requirements*.txt")) {
            for (Path p : s) if (Files.isRegularFile(p)) out.add(p);
        } catch (IOException | UncheckedIOException e) {
            return List.of();
        }
        out.sort((a, b) -> {
            boolean aPlain = a.getFileName().toString().equals("requirements.txt");
            boolean bPlain = b.getFileName().toString().equals("requirements.txt");
            return aPlain != bPlain ? (aPlain ? -1 : 1) : a.compareTo(b);
        });
        return out;
    }

    static TorchVersion inRequirements(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | UncheckedIOException e) {
            return null;
        }
        StringBuilder logical = new StringBuilder();
        for (String raw : lines) {
            String line = withoutComment(raw);
            // a trailing backslash continues the requirement (pip-compile's --hash lines)
            if (line.endsWith("\\")) {
                logical.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            logical.append(line);
            String requirement = logical.toString().trim();
            logical.setLength(0);
            // -r, -c, -e, --index-url ...: options, not requirements
            if (requirement.isEmpty() || requirement.startsWith("-")) continue;
            int option = requirement.indexOf(" --");
            if (option >= 0) requirement = requirement.substring(0, option).trim();
            TorchVersion v = pin(requirement, "in " + file);
            if (v != null) return v;
        }
        return null;
    }

    /** {@code [project] dependencies} of a pyproject.toml ({@code optional-dependencies} are not the project's). */
    static TorchVersion inProjectDependencies(Path pyproject) {
        if (!Files.isRegularFile(pyproject)) return null;
        JsonNode root;
        try {
            root = ConfigFile.readToml(pyproject);
        } catch (IOException | UncheckedIOException e) {
            return null;
        }
        if (root == null) return null;
        for (JsonNode d : root.path("project").path("dependencies")) {
            if (!d.isTextual()) continue;
            TorchVersion v = pin(d.textValue(), "in " + pyproject + " [project] dependencies");
            if (v != null) return v;
        }
        return null;
    }

    /** A requirement's pin when it names torch and bounds it from below; {@code where} ends the description. */
    static TorchVersion pin(String requirement, String where) {
        int marker = requirement.indexOf(';');
        String r = (marker >= 0 ? requirement.substring(0, marker) : requirement).trim();
        Matcher m = REQUIREMENT.matcher(r);
        if (!m.matches() || !isTorch(m.group(1))) return null;
        String version = version(m.group(2));
        if (version == null) return null;
        return new TorchVersion(version, TorchVersion.Origin.PINNED, "pin " + r.replaceAll("\\s+", "") + " " + where, null);
    }

    /**
     * The version a specifier set gives: its {@code ==} (or {@code ===}) version, {@code .*} dropped;
     * else its highest lower bound ({@code >=}, {@code ~=}, {@code >}); else null (no bound, a URL,
     * only an upper bound). MAJOR.MINOR.
     */
    static String version(String specifiers) {
        String s = specifiers.trim();
        if (s.startsWith("(") && s.endsWith(")")) s = s.substring(1, s.length() - 1); // the old "torch (>=2.6)"
        if (s.isEmpty() || s.startsWith("@")) return null;
        String exact = null;
        int[] lower = null;
        for (String part : s.split(",")) {
            Matcher m = SPECIFIER.matcher(part);
            if (!m.matches()) return null; // not a specifier set we read: no pin rather than a wrong one
            String minor = minor(m.group(2).endsWith(".*") ? m.group(2).substring(0, m.group(2).length() - 2) : m.group(2));
            if (minor == null) continue;
            switch (m.group(1)) {
                case "==", "===" -> exact = minor;
                case ">=", "~=", ">" -> {
                    int[] v = AnalysisConfig.parseVersion(minor);
                    if (lower == null || v[0] > lower[0] || (v[0] == lower[0] && v[1] > lower[1])) lower = v;
                }
                default -> { } // != < <=: no lower bound
            }
        }
        if (exact != null) return exact;
        return lower == null ? null : lower[0] + "." + lower[1];
    }

    /** {@code 2.10.0+cpu} → {@code 2.10}; {@code 2} → {@code 2.0}; null when it is not a release number. */
    static String minor(String version) {
        String v = version.trim();
        if (v.matches("[0-9]+")) v = v + ".0";
        try {
            int[] p = AnalysisConfig.parseVersion(v);
            return p[0] + "." + p[1];
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** PEP 503's normalised name is {@code torch}. */
    private static boolean isTorch(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[-_.]+", "-").equals("torch");
    }

    /** A comment starts at a {@code #} at the line's start or after whitespace (pip's rule). */
    private static String withoutComment(String line) {
        for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) return line.substring(0, i).stripTrailing();
        }
        return line.stripTrailing();
    }
}
