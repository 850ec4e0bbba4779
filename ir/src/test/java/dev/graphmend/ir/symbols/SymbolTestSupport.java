package dev.graphmend.ir.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Module;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.PythonSourceParser;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Helpers for tests that state expectations next to the Python source. */
final class SymbolTestSupport {
    private SymbolTestSupport() {}

    static Module parse(String source) {
        ParseResult r = new PythonSourceParser().parse(source.getBytes(StandardCharsets.UTF_8));
        assertTrue(r.errors().isEmpty(), () -> "test source does not parse: " + r.errors() + "\n" + source);
        return r.module();
    }

    static SymbolTable table(String source) {
        return SymbolTable.build(parse(source));
    }

    /**
     * Checks symbols of the table's own view. Each expectation reads
     * {@code "SCOPE: NAME KIND FLAGS"} where SCOPE is the path of scope names below the module
     * joined by dots ({@code top} for the module, {@code f.g}, {@code C.m.lambda}, {@code lambda#2}
     * for the second sibling of that name), KIND is the dump's word for the symbol kind and FLAGS
     * the dump's comma-separated flags (see {@code tools/symtable_dump.py}); {@code "SCOPE: NAME
     * absent"} says the scope has no such symbol.
     */
    static void expectSymbols(String source, String... expectations) {
        SymbolTable t = table(source);
        List<String> failures = new ArrayList<>();
        for (String e : expectations) {
            int colon = e.indexOf(": ");
            Scope scope = scope(t, e.substring(0, colon));
            String[] parts = e.substring(colon + 2).split(" ", 2);
            Symbol s = scope.lookup(parts[0]);
            String actual = s == null ? "absent" : describe(s);
            if (!actual.equals(parts[1])) failures.add(e + "\n      but was: " + actual);
        }
        if (!failures.isEmpty()) fail("in\n" + source + "\n" + String.join("\n", failures) + "\nscopes:\n" + SymtableDump.dump(t));
    }

    static String describe(Symbol s) {
        return s.kind().dumpName() + " " + SymbolFlag.dump(s.cpythonFlags() & Def.FLAG_MASK);
    }

    /** The scope at a dotted path of scope names ({@code top} is the module). */
    static Scope scope(SymbolTable t, String path) {
        Scope s = t.module();
        if (path.equals("top")) return s;
        for (String part : path.split("\\.")) {
            String name = part;
            int nth = 1;
            int hash = part.indexOf('#');
            if (hash >= 0) {
                name = part.substring(0, hash);
                nth = Integer.parseInt(part.substring(hash + 1));
            }
            Scope found = null;
            int seen = 0;
            for (Scope c : s.children()) {
                if (c.name().equals(name) && ++seen == nth) {
                    found = c;
                    break;
                }
            }
            assertNotNull(found, "no scope " + part + " in " + s + " (path " + path + ")");
            s = found;
        }
        return s;
    }

    /** Every {@code Name} node with this id, in visit order. */
    static List<Expr.Name> names(Node root, String id) {
        List<Expr.Name> out = new ArrayList<>();
        walk(root, n -> {
            if (n instanceof Expr.Name && ((Expr.Name) n).id().equals(id)) out.add((Expr.Name) n);
        });
        return out;
    }

    static void walk(Node n, Consumer<Node> f) {
        f.accept(n);
        n.forEachChild(c -> walk(c, f));
    }

    /** "L:C" of a node's start, for readable assertions. */
    static String at(Node n) {
        return n.span().line() + ":" + n.span().col();
    }

    static void assertAt(String expected, Node n) {
        assertEquals(expected, at(n));
    }
}
