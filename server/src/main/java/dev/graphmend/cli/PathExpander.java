package dev.graphmend.cli;

import dev.graphmend.passes.config.FileSelection;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Expands command-line paths to the Python files they name, exactly as {@code tools/gm_ast_dump.py}
 * does, so that our output and CPython's line up file for file:
 * <ul>
 *   <li>a path that is a directory (following a symbolic link, like {@code os.path.isdir}) expands
 *       to every {@code *.py} file below it, walked like {@code os.walk(top)}: symbolic links to
 *       directories are not descended into, and the names are joined like {@code os.path.join}
 *       (a separator is added unless the left part already ends in one). The files of one
 *       argument are then sorted as whole path strings by code point, like Python's {@code sorted};
 *   <li>any other path is yielded as given, whatever its name, when it is a regular file (after
 *       links): a FIFO or a device is an error, never opened (reading a FIFO blocks until a
 *       writer comes, /dev/zero never ends); one met in a walk is left out;
 *   <li>arguments keep their command-line order (no global sort, no de-duplication).
 * </ul>
 * Unlike {@code os.walk}, a directory that cannot be listed is reported instead of being skipped
 * silently. {@code check} and {@code fix} also skip, below a folder given, what the
 * configuration's {@link FileSelection} leaves out (the folders that hold no project code,
 * {@code .git}, {@code .venv}, {@code node_modules} …, and {@code exclude} / {@code extend-exclude})
 * and what git ignores,
 * as the language server's index does; {@code ast}, compared file for file with CPython's walk,
 * does not.
 */
final class PathExpander {
    private PathExpander() {}

    /**
     * One expanded entry: the path as printed, or a problem with the argument it came from, or
     * ({@code note}) a file a walk left out on purpose, with why: not an error.
     */
    record Entry(String path, String problem, boolean note) {
        static Entry file(String path) { return new Entry(path, null, false); }
        static Entry problem(String path, String problem) { return new Entry(path, problem, false); }
        static Entry skipped(String path, String why) { return new Entry(path, why, true); }
        boolean ok() { return problem == null; }
    }

    /** Python's {@code str} ordering: by Unicode code point (Java's compareTo uses UTF-16 units). */
    static final Comparator<String> CODE_POINT_ORDER = (a, b) -> {
        int i = 0, j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i), cb = b.codePointAt(j);
            if (ca != cb) return Integer.compare(ca, cb);
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    };

    /** {@code os.path.join(a, b)} for a relative name {@code b}. */
    static String join(String a, String b) {
        if (a.isEmpty() || a.endsWith("/")) return a + b;
        return a + "/" + b;
    }

    /** Every {@code *.py} below the folders given, as {@code os.walk} finds them (the {@code ast} command). */
    static List<Entry> expand(List<String> args) {
        return expand(args, null);
    }

    /** As {@link #expand(List, FileSelection, List)} with the arguments as the tree. */
    static List<Entry> expand(List<String> args, FileSelection sourcesOnly) {
        return expand(args, sourcesOnly, realPaths(args));
    }

    /**
     * As {@link #expand(List)}; with a selection ({@code check} and {@code fix}), the folders and
     * files it leaves out are not walked into or listed, and a symbolic link to a file met in a
     * walk is not followed: its target is checked under its own name when it lies in
     * {@code tree} (the real paths of every file and folder named), and left out with a note when
     * it lies outside (a fix would rewrite a file no argument named).
     */
    static List<Entry> expand(List<String> args, FileSelection sourcesOnly, List<Path> tree) {
        List<Entry> out = new ArrayList<>();
        for (String arg : args) {
            Path p;
            try {
                p = Paths.get(arg);
            } catch (InvalidPathException e) {
                out.add(Entry.problem(arg, "invalid path: " + e.getReason()));
                continue;
            }
            if (!arg.isEmpty() && Files.isDirectory(p)) {
                List<String> found = new ArrayList<>();
                List<Entry> problems = new ArrayList<>();
                walk(arg, p, found, problems, sourcesOnly, tree);
                if (sourcesOnly != null && !found.isEmpty()) {
                    // what git ignores is left out too, as ruff does (git answers; without git, nothing is)
                    List<Path> paths = new ArrayList<>();
                    for (String f : found) paths.add(Paths.get(f));
                    java.util.Set<Path> ignored = dev.graphmend.passes.config.GitIgnore.ignored(p, paths);
                    if (!ignored.isEmpty()) found.removeIf(f -> ignored.contains(Paths.get(f).toAbsolutePath().normalize()));
                }
                found.sort(CODE_POINT_ORDER);
                for (String f : found) out.add(Entry.file(f));
                out.addAll(problems);
            } else if (arg.isEmpty() || !Files.exists(p)) {
                out.add(Entry.problem(arg, Files.isSymbolicLink(p) ? "broken symbolic link" : "no such file or directory"));
            } else if (!Files.isRegularFile(p)) {
                // a FIFO would block the read for ever, /dev/zero never end it: never opened
                out.add(Entry.problem(arg, "not a regular file (" + kind(p) + "): not read"));
            } else {
                out.add(Entry.file(arg));
            }
        }
        return out;
    }

    private static void walk(String shown, Path dir, List<String> found, List<Entry> problems, FileSelection sourcesOnly,
                             List<Path> tree) {
        List<String[]> subdirs = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (Files.isDirectory(entry)) {
                    // os.walk(followlinks=False) lists a link to a directory among the
                    // directories but does not descend into it.
                    if (!Files.isSymbolicLink(entry) && !(sourcesOnly != null && sourcesOnly.skipsFolder(entry))) {
                        subdirs.add(new String[] {name});
                    }
                } else if (name.endsWith(".py") && !(sourcesOnly != null && sourcesOnly.skipsFile(entry))) {
                    // a FIFO, device or socket named *.py (or a link to one) is never opened:
                    // reading a FIFO blocks, /dev/zero never ends
                    if (Files.exists(entry) && !Files.isRegularFile(entry)) continue;
                    String path = join(shown, name);
                    Path real = sourcesOnly != null && Files.isSymbolicLink(entry) ? realPath(entry) : null;
                    if (real == null) {
                        found.add(path); // a broken link too: reported when it is read
                    } else if (!inside(real, tree)) {
                        problems.add(Entry.skipped(path, "a symbolic link to a file outside the paths given (" + real + "): not followed"));
                    } // else a link into the tree: its target is checked under its own name
                }
            }
        } catch (IOException | SecurityException e) {
            problems.add(Entry.problem(shown, "cannot list directory: " + describe(e)));
            return;
        }
        subdirs.sort((x, y) -> CODE_POINT_ORDER.compare(x[0], y[0]));
        for (String[] sub : subdirs) walk(join(shown, sub[0]), dir.resolve(sub[0]), found, problems, sourcesOnly, tree);
    }

    /** The real paths of the arguments that exist (links resolved): the tree a walk keeps to. */
    static List<Path> realPaths(List<String> args) {
        List<Path> out = new ArrayList<>();
        for (String arg : args) {
            try {
                out.add(Paths.get(arg).toRealPath());
            } catch (IOException | InvalidPathException | SecurityException e) {
                // reported when the argument is expanded
            }
        }
        return out;
    }

    private static Path realPath(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    private static boolean inside(Path real, List<Path> tree) {
        for (Path root : tree) if (real.startsWith(root)) return true;
        return false;
    }

    /** What a path that is not a regular file is, as {@code ls -l} tells it. */
    static String kind(Path p) {
        try {
            int type = ((Number) Files.getAttribute(p, "unix:mode")).intValue() & 0170000;
            switch (type) {
                case 0010000: return "a FIFO";
                case 0020000: return "a character device";
                case 0060000: return "a block device";
                case 0140000: return "a socket";
                default: break;
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            // not a POSIX file system: say no more
        }
        return "a FIFO, device or socket";
    }

    static String describe(Exception e) {
        if (e instanceof java.nio.file.NoSuchFileException) return "no such file or directory";
        if (e instanceof java.nio.file.AccessDeniedException) return "permission denied";
        if (e instanceof java.nio.file.NotDirectoryException) return "not a directory";
        String msg = e.getMessage();
        String kind = e.getClass().getSimpleName();
        return msg == null ? kind : kind + ": " + msg;
    }
}
