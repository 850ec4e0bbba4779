package dev.graphmend.passes.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the torch version comes from when no setting names it (docs/configuration.md): each
 * source in turn, the order between them, and the pin grammar. Environments are fake: a
 * {@code pyvenv.cfg} and a {@code torch-X.dist-info/METADATA}, as pip leaves them.
 */
class TorchVersionResolverTest {
    private static final Map<String, String> NO_ENV = Map.of();

    /** A fake venv at {@code prefix} with torch {@code version} installed; returns its dist-info folder. */
    static Path venv(Path prefix, String version) throws Exception {
        Files.createDirectories(prefix);
        Files.writeString(prefix.resolve("pyvenv.cfg"), "home = /usr/bin\nversion = 3.11.9\n");
        Path site = prefix.resolve("lib/python3.11/site-packages");
        Files.createDirectories(site.resolve("torchvision-0.25.0.dist-info"));
        Files.writeString(site.resolve("torchvision-0.25.0.dist-info/METADATA"), "Metadata-Version: 2.1\nName: torchvision\nVersion: 0.25.0\n");
        if (version == null) return null;
        Path info = Files.createDirectories(site.resolve("torch-" + version + ".dist-info"));
        Files.writeString(info.resolve("METADATA"), "Metadata-Version: 2.1\nName: torch\nVersion: " + version + "\n\nVersion: 9.9 in the description\n");
        return info;
    }

    static Path project(Path dir) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("pyproject.toml"), "[project]\nname = \"p\"\n");
        Files.writeString(dir.resolve("model.py"), "import torch\n");
        return dir;
    }

    @Test
    void theEditorsInterpreterInAVenvIsReadWithoutRunningIt(@TempDir Path tmp) throws Exception {
        Path root = project(tmp.resolve("p"));
        Path info = venv(tmp.resolve("envs/work"), "2.10.0");
        venv(root.resolve(".venv"), "2.9.0"); // the editor's choice wins over the folder beside the project
        String python = tmp.resolve("envs/work/bin/python").toString(); // need not exist: pyvenv.cfg says it is a venv
        TorchVersion v = new TorchVersionResolver(NO_ENV).discover(root, python);
        assertEquals("2.10", v.version());
        assertEquals(TorchVersion.Origin.INSTALLED, v.origin());
        assertEquals("torch 2.10.0 installed for the editor's interpreter " + python, v.source());
        assertEquals(info, v.evidence());
        assertEquals(v.source() + " (" + info + ")", v.describe());
    }

    /** An interpreter outside a venv is asked for its sys.path, once (a script stands in for python here). */
    @Test
    void anInterpreterOutsideAVenvIsAskedForItsSysPathOnce(@TempDir Path tmp) throws Exception {
        assumeTrue(File.separatorChar == '/', "a shell script stands in for python");
        Path root = project(tmp.resolve("p"));
        Path site = Files.createDirectories(tmp.resolve("conda/lib/python3.12/site-packages"));
        Path info = Files.createDirectories(site.resolve("torch-2.11.0+cu128.dist-info"));
        Files.writeString(info.resolve("METADATA"), "Metadata-Version: 2.1\nName: torch\nVersion: 2.11.0+cu128\n");
        Path calls = tmp.resolve("calls");
        Path python = tmp.resolve("conda/bin/python");
        Files.createDirectories(python.getParent());
        Files.writeString(python, "#!/bin/sh\necho run >> '" + calls + "'\necho ''\necho /nonexistent/lib/python312.zip\necho '" + site + "'\n");
        assertTrue(python.toFile().setExecutable(true));
        TorchVersionResolver r = new TorchVersionResolver(NO_ENV);
        TorchVersion v = r.discover(root, python.toString());
        assertEquals("2.11", v.version());
        assertEquals("torch 2.11.0+cu128 installed for the editor's interpreter " + python, v.source());
        assertEquals(info, v.evidence());
        r.discover(tmp.resolve("elsewhere"), python.toString());
        assertEquals(1, Files.readAllLines(calls).size(), "one run per interpreter");
        // an interpreter that cannot run is no source: the next one is asked
        assertTrue(r.discover(root, tmp.resolve("no/such/python").toString()).isDefault());
    }

    @Test
    void virtualEnvOfTheProcess(@TempDir Path tmp) throws Exception {
        Path root = project(tmp.resolve("p"));
        venv(tmp.resolve("active"), "2.10.0");
        venv(root.resolve(".venv"), "2.9.0");
        TorchVersion v = new TorchVersionResolver(Map.of("VIRTUAL_ENV", tmp.resolve("active").toString())).discover(root, null);
        assertEquals("2.10", v.version());
        assertEquals("torch 2.10.0 installed in VIRTUAL_ENV=" + tmp.resolve("active"), v.source());
    }

    @Test
    void aVenvBesideTheProject(@TempDir Path tmp) throws Exception {
        Path root = project(tmp.resolve("p"));
        Path info = venv(root.resolve(".venv"), "2.10.0");
        TorchVersion v = new TorchVersionResolver(NO_ENV).discover(root, null);
        assertEquals("2.10", v.version());
        assertEquals("torch 2.10.0 installed in " + root.resolve(".venv"), v.source());
        assertEquals(info, v.evidence());
        assertEquals("torch-version 2.10 (torch 2.10.0 installed in " + root.resolve(".venv") + ")", v.brief());
    }

    /**
     * {@code venv} counts as {@code .venv} does; one in a folder above the project is found up to
     * the repository's top (the folder holding {@code .git}), not above it.
     */
    @Test
    void aVenvAboveTheProjectUpToTheRepositorysTop(@TempDir Path tmp) throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        Path member = project(repo.resolve("packages/a"));
        venv(repo.resolve("venv"), "2.11.0");
        assertEquals("2.11", new TorchVersionResolver(NO_ENV).discover(member, null).version(), "no .git: the walk goes up");
        Files.createDirectories(repo.resolve(".git"));
        assertEquals("2.11", new TorchVersionResolver(NO_ENV).discover(member, null).version(), "the repository's top is searched");
        venv(tmp.resolve(".venv"), "2.8.0");
        Files.delete(repo.resolve("venv/pyvenv.cfg"));
        assertTrue(new TorchVersionResolver(NO_ENV).discover(member, null).isDefault(), "nothing above the repository's top");
    }

    /** A venv without torch is no source: the next one is asked. */
    @Test
    void anEnvironmentWithoutTorchIsSkipped(@TempDir Path tmp) throws Exception {
        Path root = project(tmp.resolve("p"));
        venv(root.resolve(".venv"), null);
        Files.writeString(root.resolve("requirements.txt"), "torch==2.10.0\n");
        TorchVersion v = new TorchVersionResolver(Map.of("VIRTUAL_ENV", root.resolve(".venv").toString())).discover(root, null);
        assertEquals(TorchVersion.Origin.PINNED, v.origin());
    }

    @Test
    void thePythonThatRunsGraphmend(@TempDir Path tmp) throws Exception {
        Path root = project(tmp.resolve("p"));
        Path site = Files.createDirectories(tmp.resolve("user/site-packages"));
        Files.createDirectories(site.resolve("torch-2.10.0.dist-info")); // no METADATA: the folder's name says it
        String path = tmp.resolve("user/python311.zip") + File.pathSeparator + site + File.pathSeparator;
        TorchVersion v = new TorchVersionResolver(Map.of("GRAPHMEND_PYTHON", "/usr/bin/python3", "GRAPHMEND_PYTHON_PATH", path))
                .discover(root, null);
        assertEquals("2.10", v.version());
        assertEquals("torch 2.10.0 installed for the Python that runs graphmend, /usr/bin/python3", v.source());
        assertEquals(site.resolve("torch-2.10.0.dist-info"), v.evidence());
        // an egg-info's PKG-INFO counts too
        Path eggs = Files.createDirectories(tmp.resolve("eggs"));
        Path egg = Files.createDirectories(eggs.resolve("torch-2.9.1-py3.11.egg-info"));
        Files.writeString(egg.resolve("PKG-INFO"), "Metadata-Version: 1.1\nName: torch\nVersion: 2.9.1\n");
        assertEquals("2.9", new TorchVersionResolver(Map.of("GRAPHMEND_PYTHON_PATH", eggs.toString())).discover(root, null).version());
    }

    @Test
    void uvLockPin(@TempDir Path tmp) throws Exception {
        Path root = project(tmp.resolve("p"));
        Files.writeString(root.resolve("requirements.txt"), "torch==2.8.0\n"); // the lock file wins
        Files.writeString(root.resolve("uv.lock"), "version = 1\nrequires-python = \">=3.10\"\n\n"
                + "[[package]]\nname = \"numpy\"\nversion = \"2.1.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n\n"
                + "[[package]]\nname = \"torch\"\nversion = \"2.10.0+cpu\"\nsource = { registry = \"https://download.pytorch.org/whl/cpu\" }\n"
                + "dependencies = [\n    { name = \"numpy\" },\n]\n");
        TorchVersion v = new TorchVersionResolver(NO_ENV).discover(root, null);
        assertEquals("2.10", v.version());
        assertEquals("pin torch 2.10.0+cpu in " + root.resolve("uv.lock"), v.source());
        Files.delete(root.resolve("uv.lock"));
        Files.writeString(root.resolve("poetry.lock"), "[[package]]\nname = \"Torch\"\nversion = \"2.9.0\"\n");
        assertEquals("2.9", new TorchVersionResolver(NO_ENV).discover(root, null).version());
    }

    @Test
    void requirementsPinExactAndLowerBound(@TempDir Path tmp) throws Exception {
        Path root = project(tmp.resolve("p"));
        Files.writeString(root.resolve("requirements.txt"), "# the model's stack\n-r base.txt\n--index-url https://x\n"
                + "numpy>=1.26  # torch==2.1 in a comment\ntorch==2.10.0 ; python_version >= \"3.10\"\n");
        TorchVersion v = new TorchVersionResolver(NO_ENV).discover(root, null);
        assertEquals("2.10", v.version());
        assertEquals("pin torch==2.10.0 in " + root.resolve("requirements.txt"), v.source());
        Files.writeString(root.resolve("requirements.txt"), "torch>=2.6,<2.7 \\\n    --hash=sha256:abc\n");
        TorchVersion bound = new TorchVersionResolver(NO_ENV).discover(root, null);
        assertEquals("2.6", bound.version());
        assertEquals("pin torch>=2.6,<2.7 in " + root.resolve("requirements.txt"), bound.source());
        // requirements.txt first, then requirements-*.txt by name
        Files.writeString(root.resolve("requirements.txt"), "numpy\n");
        Files.writeString(root.resolve("requirements-gpu.txt"), "torch~=2.9.0\n");
        assertEquals("2.9", new TorchVersionResolver(NO_ENV).discover(root, null).version());
    }

    @Test
    void theSpecifierGrammar() {
        assertEquals("2.10", TorchPins.version("==2.10.0"));
        assertEquals("2.10", TorchPins.version("==2.10.*"));
        assertEquals("2.10", TorchPins.version("===2.10.0+cu121"));
        assertEquals("2.6", TorchPins.version(">=2.6,<2.7"));
        assertEquals("2.6", TorchPins.version(" (>= 2.6, < 3)"));
        assertEquals("2.6", TorchPins.version("~=2.6.0"));
        assertEquals("2.6", TorchPins.version(">2.6"));
        assertEquals("2.7", TorchPins.version(">=2.6,>=2.7,!=2.7.1"));
        assertEquals("2.0", TorchPins.version(">=2"));
        assertNull(TorchPins.version(""), "no bound at all");
        assertNull(TorchPins.version("<2.7"), "only an upper bound");
        assertNull(TorchPins.version("@ https://download.pytorch.org/whl/torch-2.6.0-cp311-none-linux_x86_64.whl"));
        assertNull(TorchPins.pin("torchvision==0.20.0", "in x"), "another package");
        assertNull(TorchPins.pin("torch-geometric>=2.6", "in x"), "another package");
        assertNotNull(TorchPins.pin("torch[opt-einsum] >= 2.6 ; sys_platform == 'linux'", "in x"));
    }

    @Test
    void projectDependenciesPin(@TempDir Path tmp) throws Exception {
        Path root = Files.createDirectories(tmp.resolve("p"));
        Files.writeString(root.resolve("pyproject.toml"), "[project]\nname = \"p\"\ndependencies = [\"numpy\", \"torch>=2.9,<3\"]\n"
                + "[project.optional-dependencies]\nold = [\"torch==2.1.0\"]\n");
        TorchVersion v = new TorchVersionResolver(NO_ENV).discover(root, null);
        assertEquals("2.9", v.version());
        assertEquals("pin torch>=2.9,<3 in " + root.resolve("pyproject.toml") + " [project] dependencies", v.source());
        // optional dependencies are not the project's pin
        Files.writeString(root.resolve("pyproject.toml"), "[project]\nname = \"p\"\n[project.optional-dependencies]\nold = [\"torch==2.1.0\"]\n");
        assertTrue(new TorchVersionResolver(NO_ENV).discover(root, null).isDefault());
    }

    @Test
    void nothingFoundIsTheNewestRelease(@TempDir Path tmp) throws Exception {
        Path root = project(tmp.resolve("p"));
        TorchVersion v = new TorchVersionResolver(NO_ENV).discover(root, null);
        assertEquals(TorchVersion.newest(), v);
        assertEquals("2.15", v.version());
        assertEquals("torch-version 2.15 (default: the newest release the rules know)", v.brief());
        assertNull(v.olderThanObservedWarning());
    }

    /**
     * A setting wins over what is installed: [tool.graphmend] torch-version over a .venv, and
     * --torch-version (a layer over the file's, as CheckOptions applies it) over both.
     */
    @Test
    void aSettingWinsOverTheEnvironment(@TempDir Path tmp) throws Exception {
        Path root = Files.createDirectories(tmp.resolve("p"));
        venv(root.resolve(".venv"), "2.10.0");
        Path pyproject = Files.writeString(root.resolve("pyproject.toml"), "[tool.graphmend]\ntorch-version = \"2.12\"\n");
        TorchVersionResolver resolver = new TorchVersionResolver(NO_ENV);
        AnalysisConfig fromFile = resolver.resolve(ConfigFile.nearest(root, new ArrayList<>()), root, null);
        assertEquals("2.12", fromFile.torchVersion());
        assertEquals("torch-version in " + pyproject + " [tool.graphmend]", fromFile.torch().source());
        AnalysisConfig flag = resolver.resolve(ConfigFile.nearest(root, new ArrayList<>())
                .withTorchVersion(TorchVersion.configured("2.11", "--torch-version")), root, null);
        assertEquals("2.11", flag.torchVersion());
        assertEquals("--torch-version", flag.torch().source());
        Files.writeString(pyproject, "[project]\nname = \"p\"\n");
        AnalysisConfig installed = resolver.resolve(ConfigFile.nearest(root, new ArrayList<>()), root, null);
        assertEquals("2.10", installed.torchVersion());
        assertTrue(installed.torchBefore(2, 15), "the rules follow the installed torch");
    }

    /** A torch upgraded in place is seen on the next question: the metadata read is gone. */
    @Test
    void anUpgradeIsSeenAndOtherwiseTheAnswerIsKept(@TempDir Path tmp) throws Exception {
        Path root = project(tmp.resolve("p"));
        Path old = venv(root.resolve(".venv"), "2.10.0");
        TorchVersionResolver r = new TorchVersionResolver(NO_ENV);
        TorchVersion first = r.discover(root, null);
        assertTrue(first == r.discover(root, null), "kept");
        Files.delete(old.resolve("METADATA"));
        Files.delete(old);
        Path info = Files.createDirectories(old.resolveSibling("torch-2.11.0.dist-info"));
        Files.writeString(info.resolve("METADATA"), "Name: torch\nVersion: 2.11.0\n");
        assertEquals("2.11", r.discover(root, null).version());
        // a pin written later is seen once the resolver forgets (the server does on a configuration change)
        Path other = project(tmp.resolve("q"));
        assertTrue(r.discover(other, null).isDefault());
        Files.writeString(other.resolve("requirements.txt"), "torch==2.9\n");
        assertTrue(r.discover(other, null).isDefault());
        r.forget();
        assertEquals("2.9", r.discover(other, null).version());
    }

    @Test
    void aReleaseOlderThanTheOldestObservedIsWarnedOf() {
        TorchVersion old = new TorchVersion("2.6", TorchVersion.Origin.INSTALLED, "torch 2.6.0 installed in /p/.venv", null);
        assertEquals("torch-version 2.6 (torch 2.6.0 installed in /p/.venv) is older than torch 2.8, the oldest release the rules "
                + "were observed on; they follow 2.8's behaviour, which may differ from this release's", old.olderThanObservedWarning());
        assertNull(TorchVersion.configured("2.8.0", "--torch-version").olderThanObservedWarning());
        assertNotNull(TorchVersion.configured("1.13", "--torch-version").olderThanObservedWarning());
    }

    @Test
    void theProjectRootIsThePyprojectsFolderElseThePathsOwn(@TempDir Path tmp) throws Exception {
        Path root = project(tmp.resolve("p"));
        Path sub = Files.createDirectories(root.resolve("src/pkg"));
        Path file = Files.writeString(sub.resolve("m.py"), "");
        assertEquals(root, TorchVersionResolver.projectRoot(file));
        Path loose = Files.createDirectories(tmp.resolve("loose"));
        Path f = Files.writeString(loose.resolve("m.py"), "");
        // tmp has no pyproject.toml above it (a test's temporary folder); the file's folder, or the folder itself
        assumeTrue(ConfigFile.find(loose) == null);
        assertEquals(loose, TorchVersionResolver.projectRoot(f));
        assertEquals(loose, TorchVersionResolver.projectRoot(loose));
        assertEquals(List.of(loose, tmp), TorchVersionResolver.foldersUp(loose).subList(0, 2));
    }
}
