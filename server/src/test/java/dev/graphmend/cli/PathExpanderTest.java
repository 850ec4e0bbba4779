package dev.graphmend.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Folder expansion must list the same paths, in the same order, as tools/gm_ast_dump.py. */
class PathExpanderTest {
    static List<String> paths(List<PathExpander.Entry> entries) {
        List<String> out = new ArrayList<>();
        for (PathExpander.Entry e : entries) out.add(e.ok() ? e.path() : "!" + e.path() + ": " + e.problem());
        return out;
    }

    @Test
    void joinIsOsPathJoin() {
        assertEquals("a/b.py", PathExpander.join("a", "b.py"));
        assertEquals("a/b.py", PathExpander.join("a/", "b.py"));
        assertEquals("a//b.py", PathExpander.join("a//", "b.py"));
        assertEquals("/b.py", PathExpander.join("/", "b.py"));
        assertEquals("b.py", PathExpander.join("", "b.py"));
    }

    @Test
    void codePointOrderIsPythonsStringOrder() {
        // U+FF5E (one UTF-16 unit) sorts before U+1F600 (a surrogate pair) by code point,
        // although 0xFF5E > 0xD83D as UTF-16 units.
        assertTrue(PathExpander.CODE_POINT_ORDER.compare("\uFF5E", "\uD83D\uDE00") < 0);
        assertTrue("\uFF5E".compareTo("\uD83D\uDE00") > 0);
        assertTrue(PathExpander.CODE_POINT_ORDER.compare("a.py", "a/x.py") < 0);
        assertTrue(PathExpander.CODE_POINT_ORDER.compare("a", "ab") < 0);
        assertEquals(0, PathExpander.CODE_POINT_ORDER.compare("ab", "ab"));
    }

    /**
     * check and fix walk past the folders that hold no project code, exactly as the language
     * server's index does; ast (compared with CPython's os.walk) walks everything. A file named
     * on the command line is read wherever it is.
     */
    @Test
    void checkAndTheServerIndexSkipTheSameFolders(@TempDir Path tmp) throws Exception {
        Path ws = tmp.resolve("repo");
        for (String f : new String[] {"model.py", "pkg/layers.py", ".venv/lib/site.py", "venv/x.py", "node_modules/y.py",
                "build/lib/z.py", "dist/w.py", ".git/hooks/h.py", "pkg/__pycache__/c.py", ".hidden/k.py",
                "myenv/bin/a.py", "buildings/house.py"}) {
            Files.createDirectories(ws.resolve(f).getParent());
            Files.writeString(ws.resolve(f), "");
        }
        Files.writeString(ws.resolve("myenv/pyvenv.cfg"), "home = /usr/bin\n"); // a virtual environment by another name
        List<String> check = new ArrayList<>();
        for (String p : paths(PathExpander.expand(List.of(ws.toString()), dev.graphmend.passes.config.FileSelection.defaults()))) check.add(ws.relativize(Path.of(p)).toString());
        assertEquals(List.of("buildings/house.py", "model.py", "pkg/layers.py"), check);
        List<String> index = new ArrayList<>();
        for (Path p : dev.graphmend.lsp.WorkspaceIndexAccess.pythonFiles(List.of(ws))) index.add(ws.relativize(p).toString());
        assertEquals(check, index, "the language server indexes what check reads");
        assertEquals(13 - 1, paths(PathExpander.expand(List.of(ws.toString()))).size(), "ast walks every folder");
        assertEquals(List.of(ws.resolve(".venv/lib/site.py").toString()),
                paths(PathExpander.expand(List.of(ws.resolve(".venv/lib/site.py").toString()), dev.graphmend.passes.config.FileSelection.defaults())), "a file named is read");
    }

    /** What git ignores (.gitignore at any depth) is left out by check and by the server's index alike; git answers. */
    @Test
    void gitIgnoredFilesAreLeftOut(@TempDir Path tmp) throws Exception {
        Path ws = tmp.resolve("repo");
        Files.createDirectories(ws);
        Process init = new ProcessBuilder("git", "init", "-q", ws.toString()).redirectErrorStream(true).start();
        assertEquals(0, init.waitFor(), "this test needs git on PATH: " + new String(init.getInputStream().readAllBytes()));
        Files.writeString(ws.resolve(".gitignore"), "generated/\n*.gen.py\n");
        Files.createDirectories(ws.resolve("pkg/generated"));
        Files.writeString(ws.resolve("pkg/.gitignore"), "scratch.py\n");
        for (String f : new String[] {"model.py", "pkg/layers.py", "pkg/generated/g.py", "pkg/x.gen.py", "pkg/scratch.py"}) {
            Files.writeString(ws.resolve(f), "");
        }
        List<String> check = new ArrayList<>();
        for (String p : paths(PathExpander.expand(List.of(ws.toString()), dev.graphmend.passes.config.FileSelection.defaults()))) {
            check.add(ws.relativize(Path.of(p)).toString());
        }
        assertEquals(List.of("model.py", "pkg/layers.py"), check);
        List<String> index = new ArrayList<>();
        for (Path p : dev.graphmend.lsp.WorkspaceIndexAccess.pythonFiles(List.of(ws))) index.add(ws.relativize(p).toString());
        assertEquals(check, index);
        assertEquals(5, paths(PathExpander.expand(List.of(ws.toString()))).size(), "ast walks what git ignores too");
        // outside a work tree nothing is ignored
        assertEquals(java.util.Set.of(), dev.graphmend.passes.config.GitIgnore.ignored(tmp, List.of(tmp.resolve("a.gen.py"))));
    }

    /** The expected order below is what gm_ast_dump.py's expand() prints for this tree. */
    @Test
    void walkMatchesOsWalkThenSorted(@TempDir Path tmp) throws Exception {
        Path d = tmp.resolve("d");
        Files.createDirectories(d.resolve("a"));
        Files.createDirectories(d.resolve("sub.py"));
        Files.createDirectories(d.resolve("B"));
        for (String f : new String[] {"b.py", "a.py", "a_b.py", "Z.py", "a/x.py", "sub.py/y.py", "B/k.py",
                "notes.txt", "a.pyc", "a/.hidden.py"}) {
            Files.writeString(d.resolve(f), "");
        }
        Files.createSymbolicLink(d.resolve("link"), d.resolve("a"));      // not descended into
        Files.createSymbolicLink(d.resolve("ln.py"), d.resolve("a.py"));  // a file: listed
        String top = d.toString();
        List<String> got = paths(PathExpander.expand(List.of(top + "/", top + "/b.py", top)));
        List<String> expectedOneWalk = List.of("B/k.py", "Z.py", "a.py", "a/.hidden.py", "a/x.py", "a_b.py",
                "b.py", "ln.py", "sub.py/y.py");
        List<String> expected = new ArrayList<>();
        for (String f : expectedOneWalk) expected.add(top + "/" + f);
        expected.add(top + "/b.py");
        for (String f : expectedOneWalk) expected.add(top + "/" + f);
        assertEquals(expected, got);
    }

    @Test
    void missingPathsAndNonPythonFiles(@TempDir Path tmp) throws Exception {
        Path txt = Files.writeString(tmp.resolve("notes.txt"), "x");
        Path broken = tmp.resolve("broken.py");
        Files.createSymbolicLink(broken, tmp.resolve("gone.py"));
        List<String> got = paths(PathExpander.expand(List.of(txt.toString(), tmp + "/nope.py", "", broken.toString())));
        assertEquals(List.of(txt.toString(), "!" + tmp + "/nope.py: no such file or directory",
                "!: no such file or directory", "!" + broken + ": broken symbolic link"), got);
    }
}
