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
                assertBindingsOfReferences(t, damaged);
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(ms < 2000, "took " + ms + " ms");
            } catch (Throwable e) {
                fail("mutation " + i + " threw " + e + " on:\n" + damaged, e);
            }
        }
        assertTrue(withErrors > 60, "the mutations should break the syntax often; broke " + withErrors);
    }

    /** The clean fixtures too: their global and nonlocal statements, and comprehension walruses. */
    @Test
    void bindingsOfAreTheBindingsOfEveryReference() throws Exception {
        Path dir = SymtableFixturesTest.fixtures();
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(p -> p.toString().endsWith(".py")).sorted().collect(Collectors.toList());
        }
        PythonSourceParser parser = new PythonSourceParser();
        int elsewhere = 0;
        String extra = "x = 1\ndef f():\n    global x, y\n    x = 2\n    y = 3\n    del x\n"
                + "    v = 0\n    def g():\n        nonlocal v\n        v += 1\n        [w := i for i in range(3)]\n"
                + "    return v\nclass C:\n    def g(self):\n        global x\n        x += 1\n    x = 4\n"
                + "[z := i for i in range(3)]\n{x := 1 for _ in ()}\n";
        List<String> sources = new java.util.ArrayList<>();
        sources.add(extra);
        for (Path p : files) sources.add(Files.readString(p, StandardCharsets.UTF_8));
        for (String src : sources) {
            SymbolTable t = SymbolTable.build(parser.parse(src.getBytes(StandardCharsets.UTF_8)).module());
            elsewhere += assertBindingsOfReferences(t, src);
        }
        assertTrue(elsewhere >= 5, "the sources should bind variables from other scopes; found " + elsewhere);
    }

    /**
     * bindingsOf(s) is, for every symbol, the bindings of every symbol that refers to the variable
     * it owns, in the references' order. Returns how many variables are also bound in another scope.
     */
    private static int assertBindingsOfReferences(SymbolTable t, String src) {
        int elsewhere = 0;
        for (Scope s : t.scopes()) {
            for (Symbol sym : s.symbols()) {
                List<Binding> expected = new java.util.ArrayList<>();
                for (Symbol r : t.references(sym)) expected.addAll(r.bindings());
                List<Binding> got = t.bindingsOf(sym);
                if (!expected.equals(got)) {
                    fail("bindings of " + sym.name() + " in " + s + ": " + got + ", its references bind " + expected + " in:\n" + src);
                }
                if (expected.size() > (sym.resolution().definition() == sym ? sym.bindings().size() : 0)) elsewhere++;
            }
        }
        return elsewhere;
    }

    private static void walk(Node n, java.util.function.Consumer<Node> f) {
        f.accept(n);
        n.forEachChild(c -> walk(c, f));
    }
}
