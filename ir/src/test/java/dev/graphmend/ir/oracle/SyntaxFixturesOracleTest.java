package dev.graphmend.ir.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.graphmend.ir.dump.GmAstDump;
import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.PythonSourceParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every language feature the grammar promises, checked against CPython 3.13 on small fixtures
 * ({@code ir/src/test/resources/syntax}), each also as CRLF, CR-only and BOM-prefixed bytes, plus
 * encodings declared by a coding cookie; and invalid snippets that CPython rejects, which we must
 * reject too. The fixtures are oracle-checked: a fixture CPython does not accept (or an "invalid"
 * snippet CPython accepts) fails the test, so the expectations cannot rot.
 */
@Tag("oracle")
class SyntaxFixturesOracleTest {
    /** Snippets CPython's parser rejects (checked below), each a separate file. */
    static final List<String> INVALID = List.of(
            "def (:\n", "class A(:\n", "f() = 1\n", "x = (1,\n", "a + = 1\n", "print 'x'\n",
            "f(**a, *b)\n", "f(a=1, b)\n", "def f(a=1, b): pass\n", "x = 1 +\n", "if x\n    pass\n",
            "s = 'unterminated\n", "s = '''unterminated\n", "f\"{x\"\n", "f\"{}\"\n", "f\"{x!z}\"\n",
            "x = 1_\n", "x = 0777\n", "(*a)\n", "match *a:\n    case 1: pass\n",
            "del *a\n", "del (a, *b)\n", "(a, b) += 1\n", "with a as f(): pass\n", "import a.b as\n",
            "from x import *, y\n", "from x import a,\n", "x := 1\n", "f(x for x in y, 1)\n",
            "[*a for a in b]\n", "{**a for a in b}\n", "a[]\n", "@dec\nx = 1\n", "try:\n    pass\n",
            "try:\n    pass\nexcept* :\n    pass\n", "match x:\n    case 1 + 1:\n        pass\n",
            "def f(*): pass\n", "def f(**k, a): pass\n", "else: pass\n", "x = 1 if 2\n", "if x = 1: pass\n",
            "True = 1\n", "a, b: int\n", "lambda x=1, y: 0\n", "x = bu'x'\n", "u'x' b'y'\n",
            "x = 5 $ 3\n", "a.1\n", "  x = 1\n", "if True:\n  x\n y\n", "def f(x):\nreturn x\n",
            "'\\N{NOT A REAL NAME}'\n", "'\\x4'\n", "b'\u00e9'\n", "f'{a b}'\n", "f\"{x:{y:{z:{w}}}}\"\n",
            "yield x = 1\n", "case x:\n    pass\n", "x = [1, 2\n", "}\n", "def f[](): pass\n",
            "if True:\n\tx = 1\n        y = 2\n", "class C:\n    def f(self):\n        return (\n    def g(self): pass\n",
            "async x = 1\n", "nonlocal\n", "f(a for a in b for)\n", "x = 1e\n", "x = 0x\n",
            "with (a as b, c as d:\n    pass\n", "global x,\n", "import\n", "from . import\n");

    static Path python;
    static Path dumper;

    @BeforeAll
    static void findOracle() throws IOException {
        Path repo = StdlibAstOracleTest.repoRoot();
        dumper = repo.resolve("tools/gm_ast_dump.py");
        StdlibAstOracleTest.Installed ref = StdlibAstOracleTest.installedPythons().get(StdlibAstOracleTest.REFERENCE_SERIES);
        if (ref == null || !Files.isExecutable(ref.python())) {
            StdlibAstOracleTest.missing("CPython " + StdlibAstOracleTest.REFERENCE_SERIES + " (for the syntax fixtures)");
        }
        python = ref.python();
    }

    @TestFactory
    Stream<DynamicTest> fixturesMatchCPython(@TempDir Path tmp) throws Exception {
        Path fixtures = StdlibAstOracleTest.repoRoot().resolve("ir/src/test/resources/syntax");
        Map<String, byte[]> files = new LinkedHashMap<>();
        try (Stream<Path> list = Files.list(fixtures)) {
            for (Path p : list.sorted().toList()) {
                byte[] lf = Files.readAllBytes(p);
                String name = p.getFileName().toString().replace(".py", "");
                String text = new String(lf, StandardCharsets.UTF_8);
                files.put(name + ".py", lf);
                files.put(name + "_crlf.py", text.replace("\n", "\r\n").getBytes(StandardCharsets.UTF_8));
                files.put(name + "_cr.py", text.replace("\n", "\r").getBytes(StandardCharsets.UTF_8));
                byte[] bom = new byte[lf.length + 3];
                bom[0] = (byte) 0xEF;
                bom[1] = (byte) 0xBB;
                bom[2] = (byte) 0xBF;
                System.arraycopy(lf, 0, bom, 3, lf.length);
                files.put(name + "_bom.py", bom);
            }
        }
        String accented = "x = 'caf\u00e9 \u00fcber'\ncaf\u00e9 = f\"{x}\u00e9\" ; y = caf\u00e9\n";
        files.put("coding_latin1.py", ("# -*- coding: latin-1 -*-\n" + accented).getBytes(StandardCharsets.ISO_8859_1));
        files.put("coding_line2_cp1252.py", ("#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\n"
                + accented + "z = '\u20ac'\n").getBytes("windows-1252"));
        files.put("coding_utf8_bom.py", concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                ("# coding: utf-8\n" + accented).getBytes(StandardCharsets.UTF_8)));
        Map<String, String> cpython = dumpWithCPython(tmp, files);
        PythonSourceParser parser = new PythonSourceParser();
        List<DynamicTest> tests = new ArrayList<>();
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            tests.add(DynamicTest.dynamicTest(f.getKey(), () -> {
                String theirs = cpython.get(f.getKey());
                assertFalse(theirs.startsWith("! syntax error"), "CPython rejects fixture " + f.getKey() + ": " + theirs);
                ParseResult ours = parser.parse(f.getValue());
                assertTrue(ours.errors().isEmpty(), () -> "we reject " + f.getKey() + ": " + ours.errors());
                assertEquals(theirs, GmAstDump.dump(ours.module()), f.getKey());
            }));
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> invalidSnippetsAreRejected(@TempDir Path tmp) throws Exception {
        Map<String, byte[]> files = new LinkedHashMap<>();
        for (int i = 0; i < INVALID.size(); i++) {
            files.put(String.format("invalid_%03d.py", i), INVALID.get(i).getBytes(StandardCharsets.UTF_8));
        }
        Map<String, String> cpython = dumpWithCPython(tmp, files);
        PythonSourceParser parser = new PythonSourceParser();
        List<DynamicTest> tests = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            String snippet = INVALID.get(i++);
            tests.add(DynamicTest.dynamicTest(f.getKey() + " " + snippet.strip().replace("\n", "\\n"), () -> {
                assertTrue(cpython.get(f.getKey()).startsWith("! syntax error"),
                        "CPython accepts this 'invalid' snippet: " + snippet);
                ParseResult ours = parser.parse(f.getValue());
                assertFalse(ours.errors().isEmpty(), "we accept invalid code: " + snippet);
                assertTrue(ours.module() != null);
            }));
        }
        return tests.stream();
    }

    /** Writes the files, runs CPython's dumper once over them, returns each file's dump body. */
    static Map<String, String> dumpWithCPython(Path dir, Map<String, byte[]> files) throws Exception {
        for (Map.Entry<String, byte[]> f : files.entrySet()) Files.write(dir.resolve(f.getKey()), f.getValue());
        Process p = new ProcessBuilder(python.toString(), dumper.toString(), dir.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) fail("CPython dumper failed with exit " + p.exitValue());
        Map<String, String> dumps = new LinkedHashMap<>();
        String current = null;
        StringBuilder body = new StringBuilder();
        for (String line : out.split("\n", -1)) {
            if (line.startsWith("== ")) {
                if (current != null) dumps.put(current, body.toString());
                current = Path.of(line.substring(3)).getFileName().toString();
                body.setLength(0);
            } else if (current != null && !line.isEmpty()) {
                body.append(line).append('\n');
            }
        }
        if (current != null) dumps.put(current, body.toString());
        for (String name : files.keySet()) {
            if (!dumps.containsKey(name)) fail("CPython dumper printed nothing for " + name);
        }
        return dumps;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
