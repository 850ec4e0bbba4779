package dev.graphmend.ir.symbols;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.PythonSourceParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Damaged programs (what an editor holds while the user types) still get symbol tables: the
 * fixtures, cut and spliced at random 600 times, parsed with error recovery, built, dumped
 * in CPython's view, every name resolved and every expression named. Nothing may throw.
 */
class SymbolTableRobustnessTest {
    private static final String[] INSERTS = {":", "(", ")", "[", "]", "lambda x: ", "nonlocal q\n", "global q\n",
        " := ", "[i for i in ", "def g[T](", "class K:\n", "*", "yield ", "await ", "from . import *\n", "\n    ",
        "\n", "__x", "super()", "type A = ", "del ", "async ", "match x:\n case [a, *b]:\n  pass\n", "@d\n",
        "import a.b as c\n", "(y := 1)", "for", "in", "if", ", ", "'", "\"\"\""};

    @Test
    void damagedFixturesNeverThrow() throws Exception {
        Path dir = SymtableFixturesTest.fixtures();
        List<String> sources;
        try (Stream<Path> s = Files.walk(dir)) {
            sources = s.filter(p -> p.toString().endsWith(".py")).sorted()
                    .map(p -> {
                        try {
                            return Files.readString(p, StandardCharsets.UTF_8);
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    }).collect(Collectors.toList());
        }
        Random random = new Random(20261129);
        PythonSourceParser parser = new PythonSourceParser();
        int withErrors = 0;
        for (int i = 0; i < 600; i++) {
            String src = sources.get(random.nextInt(sources.size()));
            StringBuilder sb = new StringBuilder(src);
            int edits = 1 + random.nextInt(4);
            for (int k = 0; k < edits; k++) {
                int at = random.nextInt(sb.length() + 1);
                if (random.nextBoolean() && sb.length() > 0) {
                    int end = Math.min(sb.length(), at + 1 + random.nextInt(40));
                    sb.delete(Math.min(at, sb.length() - 1), end);
                } else {
                    sb.insert(at, INSERTS[random.nextInt(INSERTS.length)]);
                }
            }
            String damaged = sb.toString();
            try {
                ParseResult r = parser.parse(damaged.getBytes(StandardCharsets.UTF_8));
                if (!r.errors().isEmpty()) withErrors++;
                long t0 = System.nanoTime();
                SymbolTable t = SymbolTable.build(r.module());
                SymtableDump.dump(t);
                QualifiedNames names = QualifiedNames.of(t, "pkg.mod", false);
                walk(r.module(), n -> {
                    if (n instanceof Expr.Name) t.resolve((Expr.Name) n);
                    if (n instanceof Expr) names.resolve((Expr) n);
                });
                for (Scope s : t.scopes()) for (Symbol sym : s.symbols()) t.bindingsOf(sym);
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(ms < 2000, "took " + ms + " ms");
            } catch (Throwable e) {
                fail("mutation " + i + " threw " + e + " on:\n" + damaged, e);
            }
        }
        assertTrue(withErrors > 60, "the mutations should break the syntax often; broke " + withErrors);
    }

    private static void walk(Node n, java.util.function.Consumer<Node> f) {
        f.accept(n);
        n.forEachChild(c -> walk(c, f));
    }
}
