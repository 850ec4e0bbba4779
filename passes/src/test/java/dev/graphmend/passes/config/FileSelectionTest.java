package dev.graphmend.passes.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** exclude, extend-exclude and per-file-ignores as ruff has them, from a pyproject.toml. */
class FileSelectionTest {
    @TempDir
    Path root;

    private FileSelection load(String table) throws Exception {
        Path py = root.resolve("pyproject.toml");
        Files.writeString(py, "[tool.graphmend]\n" + table);
        List<String> warnings = new ArrayList<>();
        AnalysisConfig c = ConfigFile.load(py, AnalysisConfig.defaults(), warnings);
        assertEquals(List.of(), warnings);
        return c.files();
    }

    @Test
    void theThreeKindsOfPattern() throws Exception {
        FileSelection s = load("extend-exclude = [\"legacy\", \"src/gen/**\", \"*_pb2.py\"]\n");
        assertEquals(root, s.root(), "relative patterns are taken from the pyproject.toml's folder");
        assertTrue(s.skipsFolder(root.resolve("a/b/legacy")), "no slash: the name anywhere");
        assertTrue(s.skipsFolder(root.resolve("src/gen")) && s.skipsFolder(root.resolve("src/gen/x")));
        assertFalse(s.skipsFolder(root.resolve("other/src/gen")), "with a slash: from the root");
        assertTrue(s.skipsFile(root.resolve("pkg/model_pb2.py")));
        assertFalse(s.skipsFile(root.resolve("pkg/model.py")));
        assertTrue(s.skipsFolder(root.resolve(".venv")) && s.skipsFolder(root.resolve("node_modules")), "defaults kept");
        assertTrue(s.excludes(root.resolve("src/gen/a.py")) && s.excludes(root.resolve("x/legacy/y.py")));
        assertFalse(s.excludes(root.resolve("src/model.py")));
    }

    @Test
    void excludeReplacesTheDefaultNames() throws Exception {
        FileSelection s = load("exclude = [\"third_party\"]\n");
        assertTrue(s.skipsFolder(root.resolve("third_party")));
        assertFalse(s.skipsFolder(root.resolve("build")), "build is read once exclude replaces the defaults");
        assertTrue(s.skipsFolder(root.resolve(".git")), "hidden folders stay out");
        assertTrue(FileSelection.defaults().skipsFolder(root.resolve("build")));
    }

    @Test
    void perFileIgnoresAndExtendSelect() throws Exception {
        Path py = root.resolve("pyproject.toml");
        Files.writeString(py, "[tool.graphmend]\nselect = [\"GM101\"]\nextend-select = [\"GM2\"]\n"
                + "per-file-ignores = { \"tests/**\" = [\"GM1\"], \"conftest.py\" = [\"GM201\"] }\n");
        AnalysisConfig c = ConfigFile.load(py, AnalysisConfig.defaults(), new ArrayList<>());
        assertEquals(List.of("GM101", "GM2"), c.select());
        assertTrue(c.files().ignores(root.resolve("tests/unit/test_a.py"), "GM101"));
        assertFalse(c.files().ignores(root.resolve("tests/unit/test_a.py"), "GM201"));
        assertTrue(c.files().ignores(root.resolve("deep/conftest.py"), "GM201"));
        assertFalse(c.files().ignores(root.resolve("src/model.py"), "GM101"));
        assertEquals(Map.of("tests/**", List.of("GM1"), "conftest.py", List.of("GM201")), c.files().perFileIgnores());
    }

    @Test
    void wrongTypesAreErrorsNamingTheKey() throws Exception {
        Path py = root.resolve("pyproject.toml");
        for (String bad : new String[] {"exclude = \"tests\"", "per-file-ignores = [\"x\"]", "extend-exclude = [1]"}) {
            Files.writeString(py, "[tool.graphmend]\n" + bad + "\n");
            try {
                ConfigFile.load(py, AnalysisConfig.defaults(), new ArrayList<>());
                throw new AssertionError("accepted: " + bad);
            } catch (ConfigFile.ConfigException e) {
                assertTrue(e.getMessage().contains(bad.substring(0, bad.indexOf(' '))), e.getMessage());
            }
        }
    }
}
