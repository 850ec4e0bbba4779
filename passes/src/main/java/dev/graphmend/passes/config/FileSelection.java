package dev.graphmend.passes.config;

import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which files a project's walk reads and which codes are ignored in which files: the
 * {@code exclude}, {@code extend-exclude} and {@code per-file-ignores} keys of
 * {@code [tool.graphmend]} (and their flags), as ruff has them. The same object decides for
 * {@code graphmend check}, {@code fix} and the language server (README.md, "Which files are read").
 *
 * <p>Patterns are globs ({@code *} within a name, {@code **} across folders). One without a
 * {@code /} matches a file or folder name anywhere; one with a {@code /} matches the path relative
 * to {@code root} (the folder of the pyproject.toml that set it, else the working folder); an
 * absolute pattern matches the absolute path.
 *
 * @param root the folder relative patterns are taken from
 * @param exclude replaces the default folder names ({@link SourceFolders#EXCLUDED}) when set; null keeps them
 * @param extendExclude added to the defaults (or to {@code exclude})
 * @param perFileIgnores pattern to the codes or prefixes not reported in the files it matches
 */
public record FileSelection(Path root, List<String> exclude, List<String> extendExclude,
                            Map<String, List<String>> perFileIgnores) {

    public FileSelection {
        root = root == null ? null : root.toAbsolutePath().normalize();
        exclude = exclude == null ? null : List.copyOf(exclude);
        extendExclude = List.copyOf(extendExclude);
        Map<String, List<String>> m = new LinkedHashMap<>();
        perFileIgnores.forEach((k, v) -> m.put(k, List.copyOf(v)));
        perFileIgnores = java.util.Collections.unmodifiableMap(m);
    }

    public static FileSelection defaults() {
        return new FileSelection(null, null, List.of(), Map.of());
    }

    public FileSelection withRoot(Path r) { return new FileSelection(r, exclude, extendExclude, perFileIgnores); }

    public FileSelection withExclude(List<String> e) { return new FileSelection(root, e, extendExclude, perFileIgnores); }

    public FileSelection withExtendExclude(List<String> e) {
        List<String> all = new java.util.ArrayList<>(extendExclude);
        all.addAll(e);
        return new FileSelection(root, exclude, all, perFileIgnores);
    }

    public FileSelection withPerFileIgnores(Map<String, List<String>> p) {
        Map<String, List<String>> all = new LinkedHashMap<>(perFileIgnores);
        all.putAll(p);
        return new FileSelection(root, exclude, extendExclude, all);
    }

    /** Whether a walk skips this folder: an excluded name or pattern, a hidden folder, a virtual environment. */
    public boolean skipsFolder(Path dir) {
        Path name = dir.getFileName();
        if (name == null) return false;
        String n = name.toString();
        if (n.startsWith(".") || Files.isRegularFile(dir.resolve("pyvenv.cfg"))) return true;
        boolean byDefault = exclude == null ? SourceFolders.EXCLUDED.contains(n) : matchesAny(exclude, dir);
        return byDefault || matchesAny(extendExclude, dir);
    }

    /** Whether a walk leaves out this file ({@code exclude = ["*_pb2.py"]}); a file named on the command line is read anyway. */
    public boolean skipsFile(Path file) {
        return exclude != null && matchesAny(exclude, file) || matchesAny(extendExclude, file);
    }

    /**
     * Whether a file is outside the selection although named: it, or a folder it is in below
     * {@code root}, is left out (the language server gives such an open document no diagnostics).
     */
    public boolean excludes(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        if (skipsFile(abs)) return true;
        // folders are judged only below a project root: a project kept under ~/.work/ is not "hidden"
        if (root == null || !abs.startsWith(root)) return false;
        for (Path dir = abs.getParent(); dir != null && dir.startsWith(root) && !dir.equals(root); dir = dir.getParent()) {
            if (skipsFolder(dir)) return true;
        }
        return false;
    }

    /** Whether {@code code} is not reported in {@code file} ({@code per-file-ignores = { "tests/*" = ["GM102"] }}). */
    public boolean ignores(Path file, String code) {
        if (perFileIgnores.isEmpty()) return false;
        for (Map.Entry<String, List<String>> e : perFileIgnores.entrySet()) {
            if (!matches(e.getKey(), file)) continue;
            for (String c : e.getValue()) if (code.startsWith(c)) return true;
        }
        return false;
    }

    private boolean matchesAny(List<String> patterns, Path p) {
        for (String pat : patterns) if (matches(pat, p)) return true;
        return false;
    }

    /** One pattern against one path (see the class comment for the three kinds). */
    boolean matches(String pattern, Path path) {
        String pat = pattern.trim().replace('\\', '/');
        if (pat.isEmpty()) return false;
        while (pat.endsWith("/") && pat.length() > 1) pat = pat.substring(0, pat.length() - 1);
        Path abs = path.toAbsolutePath().normalize();
        PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + pat);
        if (pat.startsWith("/")) return m.matches(abs);
        if (pat.indexOf('/') < 0) return abs.getFileName() != null && m.matches(abs.getFileName());
        Path base = root != null ? root : Path.of("").toAbsolutePath();
        if (!abs.startsWith(base)) return false;
        Path rel = base.relativize(abs);
        // `tests/**` names what is below tests/; `tests/` alone, the folder itself
        return m.matches(rel) || pat.endsWith("/**") && rel.equals(Path.of(pat.substring(0, pat.length() - 3)));
    }
}
