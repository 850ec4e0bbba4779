package dev.graphmend.passes.config;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Finds the torch release a project uses when no setting names one (docs/configuration.md,
 * "Where the torch version comes from"), first match winning: the editor's interpreter, the
 * {@code VIRTUAL_ENV}, a {@code .venv} or {@code venv} beside the project, the Python that runs
 * graphmend ({@code GRAPHMEND_PYTHON_PATH}), the project's pin, and last the newest release the
 * rules know. A project on torch 2.6 must not be offered fixes that need 2.15.
 *
 * <p>The process environment is given, not read here, so that a test states it. One resolver
 * keeps what it found per project and interpreter (the language server asks on every analysis)
 * until {@link #forget()}; a torch found installed is looked up again once its metadata folder is
 * gone (upgraded or removed).
 */
public final class TorchVersionResolver {
    /** The environment variables read: a virtual environment's prefix, and what the pip launcher sets. */
    public static final String VIRTUAL_ENV = "VIRTUAL_ENV", GRAPHMEND_PYTHON = "GRAPHMEND_PYTHON",
            GRAPHMEND_PYTHON_PATH = "GRAPHMEND_PYTHON_PATH";
    /** How long an interpreter may take to say its sys.path. */
    private static final long RUN_SECONDS = 5;
    /** Prints sys.path; never imports torch. */
    private static final String PRINT_SYS_PATH = "import sys; print('\\n'.join(sys.path))";

    private final String virtualEnv, graphmendPython, graphmendPythonPath;
    private final Map<String, List<Path>> sysPaths = new ConcurrentHashMap<>();
    private final Map<List<String>, TorchVersion> found = new ConcurrentHashMap<>();

    /** @param environment the process environment ({@code System.getenv()}), of which the names above are read */
    public TorchVersionResolver(Map<String, String> environment) {
        virtualEnv = nonBlank(environment.get(VIRTUAL_ENV));
        graphmendPython = nonBlank(environment.get(GRAPHMEND_PYTHON));
        graphmendPythonPath = nonBlank(environment.get(GRAPHMEND_PYTHON_PATH));
    }

    /**
     * The configuration with its torch version: the one a setting gave, else the one found for
     * the project whose folder is {@code root}.
     *
     * @param interpreter the python executable the editor selected, or null
     */
    public AnalysisConfig resolve(AnalysisConfig config, Path root, String interpreter) {
        if (!config.torch().isDefault()) return config;
        return config.withTorchVersion(discover(root, interpreter));
    }

    /** The torch the project at {@code root} uses (steps 1 to 6 of the class comment); never null. */
    public TorchVersion discover(Path root, String interpreter) {
        Path r = root == null ? null : root.toAbsolutePath().normalize();
        List<String> key = List.of(String.valueOf(r), interpreter == null ? "" : interpreter);
        TorchVersion cached = found.get(key);
        // an upgrade or uninstall removes the metadata folder that was read: look again
        if (cached != null && (cached.origin() != TorchVersion.Origin.INSTALLED || Files.exists(cached.evidence()))) return cached;
        TorchVersion v = search(r, nonBlank(interpreter));
        found.put(key, v);
        return v;
    }

    /** Forgets what was found (the settings, a pyproject.toml or a lock file changed). */
    public void forget() {
        found.clear();
        sysPaths.clear();
    }

    /** The project's folder for a file or folder: the folder of the nearest pyproject.toml, else its own folder. */
    public static Path projectRoot(Path start) {
        Path pyproject = ConfigFile.find(start);
        if (pyproject != null) return pyproject.getParent();
        Path p = start.toAbsolutePath().normalize();
        return Files.isDirectory(p) || p.getParent() == null ? p : p.getParent();
    }

    /**
     * {@code root} and the folders above it, up to the filesystem's root or the first folder that
     * holds {@code .git} (a repository's top: what lies above it is another project's).
     */
    static List<Path> foldersUp(Path root) {
        List<Path> out = new ArrayList<>();
        for (Path dir = root; dir != null; dir = dir.getParent()) {
            out.add(dir);
            if (Files.exists(dir.resolve(".git"))) break;
        }
        return out;
    }

    private TorchVersion search(Path root, String interpreter) {
        if (interpreter != null) {
            TorchVersion v = installed(interpreterSiteDirs(interpreter), "for the editor's interpreter " + interpreter);
            if (v != null) return v;
        }
        if (virtualEnv != null) {
            Path prefix = path(virtualEnv);
            TorchVersion v = prefix == null ? null : installed(InstalledTorch.venvSiteDirs(prefix), "in VIRTUAL_ENV=" + prefix);
            if (v != null) return v;
        }
        List<Path> up = root == null ? List.of() : foldersUp(root);
        for (Path dir : up) {
            for (String name : new String[] {".venv", "venv"}) {
                Path prefix = dir.resolve(name);
                if (!InstalledTorch.isVenv(prefix)) continue;
                TorchVersion v = installed(InstalledTorch.venvSiteDirs(prefix), "in " + prefix);
                if (v != null) return v;
            }
        }
        TorchVersion own = graphmendsPython();
        if (own != null) return own;
        TorchVersion pin = root == null ? null : TorchPins.find(root, up);
        return pin != null ? pin : TorchVersion.newest();
    }

    /** Step 4: the sys.path the pip launcher passed, else its interpreter asked as the editor's is. */
    private TorchVersion graphmendsPython() {
        String who = "for the Python that runs graphmend" + (graphmendPython == null ? "" : ", " + graphmendPython);
        if (graphmendPythonPath != null) {
            List<Path> dirs = new ArrayList<>();
            for (String d : graphmendPythonPath.split(File.pathSeparator)) {
                Path p = d.isBlank() ? null : path(d);
                if (p != null) dirs.add(p);
            }
            return installed(dirs, who);
        }
        return graphmendPython == null ? null : installed(interpreterSiteDirs(graphmendPython), who);
    }

    private static TorchVersion installed(List<Path> siteDirs, String where) {
        InstalledTorch.Found f = InstalledTorch.in(siteDirs);
        if (f == null) return null;
        String minor = TorchPins.minor(f.version());
        return new TorchVersion(minor, TorchVersion.Origin.INSTALLED, "torch " + f.version() + " installed " + where, f.metadata());
    }

    /** A venv's site-packages (no process needed), else the sys.path the interpreter prints. */
    private List<Path> interpreterSiteDirs(String interpreter) {
        Path exe = path(interpreter);
        if (exe == null) return List.of();
        Path venv = InstalledTorch.venvOf(exe);
        if (venv != null) return InstalledTorch.venvSiteDirs(venv);
        List<Path> known = sysPaths.get(interpreter);
        if (known != null) return known;
        List<Path> dirs = runForSysPath(interpreter);
        sysPaths.put(interpreter, dirs);
        return dirs;
    }

    /** Runs {@code interpreter -c "…print sys.path"} once, for at most five seconds; empty when it fails. */
    private static List<Path> runForSysPath(String interpreter) {
        Path out = null;
        Process p = null;
        try {
            // to a file, not a pipe: a pipe's reader could wait past the time limit
            out = Files.createTempFile("graphmend-syspath", ".txt");
            p = new ProcessBuilder(interpreter, "-c", PRINT_SYS_PATH)
                    .redirectOutput(out.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            p.getOutputStream().close(); // nothing to read: its standard input is at its end
            if (!p.waitFor(RUN_SECONDS, TimeUnit.SECONDS) || p.exitValue() != 0) return List.of();
            List<Path> dirs = new ArrayList<>();
            for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
                Path d = line.isBlank() ? null : path(line.strip());
                if (d != null && d.isAbsolute()) dirs.add(d); // '' (the working folder) is not an install
            }
            return List.copyOf(dirs);
        } catch (IOException | RuntimeException e) {
            return List.of(); // not executable, not a Python: nothing found there
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } finally {
            if (p != null && p.isAlive()) p.destroyForcibly();
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException e) {
                    // a temporary file left behind
                }
            }
        }
    }

    private static Path path(String s) {
        try {
            return Path.of(s);
        } catch (InvalidPathException e) {
            return null;
        }
    }

    private static String nonBlank(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
