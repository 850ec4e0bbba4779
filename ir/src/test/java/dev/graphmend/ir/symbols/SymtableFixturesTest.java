package dev.graphmend.ir.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.PythonSourceParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The edge-case fixtures in {@code ir/src/test/resources/symbols} against CPython 3.13's
 * {@code symtable} dumps committed beside them in {@code expected/} (without needing CPython;
 * {@link SymtableOracleTest} checks that those dumps are still CPython's).
 */
class SymtableFixturesTest {

    static Path fixtures() {
        return SymtableOracleTest.repoRoot().resolve("ir/src/test/resources/symbols");
    }

    /** {@code symbols/expected/NAME.symtable} for {@code symbols/NAME.py}. */
    static Path expectedFile(Path fixtures, Path py) {
        String rel = fixtures.relativize(py).toString();
        return fixtures.resolve("expected").resolve(rel.substring(0, rel.length() - 3).replace('/', '_') + ".symtable");
    }

    /** Fixtures under {@code errors/} are programs CPython's symtable rejects; their first line says with what. */
    static boolean isErrorFixture(Path fixtures, Path py) {
        return fixtures.relativize(py).toString().startsWith("errors/");
    }

    @TestFactory
    Stream<DynamicTest> rejectedProgramsAreReportedAsProblems() throws IOException {
        Path dir = fixtures().resolve("errors");
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".py")).sorted().collect(Collectors.toList());
        }
        assertFalse(files.isEmpty(), "no fixtures in " + dir);
        PythonSourceParser parser = new PythonSourceParser();
        return files.stream().map(py -> DynamicTest.dynamicTest(dir.relativize(py).toString(), () -> {
            String src = Files.readString(py, StandardCharsets.UTF_8);
            String expected = src.substring("# error: ".length(), src.indexOf('\n'));
            SymbolTable table = SymbolTable.build(parser.parse(src.getBytes(StandardCharsets.UTF_8)).module());
            assertFalse(table.problems().isEmpty(), "no problem reported");
            assertEquals(expected, table.problems().get(0).message());
            SymtableDump.dump(table);
        }));
    }

    @TestFactory
    Stream<DynamicTest> fixturesMatchCPythonsDump() throws IOException {
        Path dir = fixtures();
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(p -> p.toString().endsWith(".py") && !isErrorFixture(dir, p)).sorted().collect(Collectors.toList());
        }
        assertFalse(files.isEmpty(), "no fixtures in " + dir);
        PythonSourceParser parser = new PythonSourceParser();
        return files.stream().map(py -> DynamicTest.dynamicTest(dir.relativize(py).toString(), () -> {
            Path expected = expectedFile(dir, py);
            assertTrue(Files.exists(expected), "missing " + expected);
            ParseResult r = parser.parse(Files.readAllBytes(py));
            assertTrue(r.errors().isEmpty(), () -> "fixture does not parse: " + r.errors());
            SymbolTable table = SymbolTable.build(r.module());
            assertEquals(Files.readString(expected, StandardCharsets.UTF_8), SymtableDump.dump(table));
            assertTrue(table.problems().isEmpty(), () -> "unexpected problems " + table.problems());
        }));
    }
}
