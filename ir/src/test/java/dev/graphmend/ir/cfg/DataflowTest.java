package dev.graphmend.ir.cfg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.PythonSourceParser;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Def-use chains as written next to their code in {@code src/test/resources/cfg/defuse.py}, and
 * the reaching-definitions API around them.
 */
class DataflowTest {

    @TestFactory
    Stream<DynamicTest> defUseChainsAreAsWrittenNextToTheirCode() throws IOException {
        String all;
        try (InputStream in = getClass().getResourceAsStream("/cfg/defuse.py")) {
            assertNotNull(in, "cfg/defuse.py is missing from the test resources");
            all = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<DynamicTest> tests = new ArrayList<>();
        for (String chunk : all.split("(?m)^(?=#== )")) {
            if (!chunk.startsWith("#== ")) continue;
            StringBuilder code = new StringBuilder();
            StringBuilder expected = new StringBuilder();
            chunk.lines().skip(1).forEach(l -> (l.startsWith("# L") ? expected.append(l.substring(2)) : code.append(l)).append('\n'));
            String title = chunk.lines().findFirst().orElseThrow().substring(4);
            tests.add(DynamicTest.dynamicTest(title, () -> {
                ParseResult r = new PythonSourceParser().parse(code.toString());
                assertTrue(r.errors().isEmpty(), () -> "fixture does not parse: " + r.errors());
                DefUse du = DefUse.of(ControlFlowGraph.of((Stmt.FunctionDef) r.module().body().get(0)));
                assertEquals(expected.toString(), render(du), () -> "def-use chains of:\n" + code);
            }));
        }
        assertTrue(tests.size() >= 8);
        return tests.stream();
    }

    static String render(DefUse du) {
        StringBuilder sb = new StringBuilder();
        for (Expr.Name u : du.uses()) {
            List<String> ds = new ArrayList<>();
            for (Definition d : du.definitionsOf(u)) ds.add("L" + d.node().span().line() + " " + d.kind());
            sb.append("L").append(u.span().line()).append(' ').append(u.id()).append(" <- ")
                    .append(ds.isEmpty() ? "nothing" : String.join(", ", ds)).append('\n');
        }
        return sb.toString();
    }

    private static Stmt.FunctionDef function(String src) {
        ParseResult r = new PythonSourceParser().parse(src);
        assertTrue(r.errors().isEmpty(), () -> r.errors().toString());
        return (Stmt.FunctionDef) r.module().body().get(0);
    }

    @Test
    void usesOfADefinitionAreTheInverseOfItsChains() {
        Stmt.FunctionDef f = function("""
                def f(a):
                    x = a
                    if a:
                        x = 2
                        print(x)
                    return x + a
                """);
        DefUse du = DefUse.of(ControlFlowGraph.of(f));
        for (Definition d : du.definitions()) {
            for (Expr.Name u : du.usesOf(d)) assertTrue(du.definitionsOf(u).contains(d), d + " -> " + u);
        }
        for (Expr.Name u : du.uses()) {
            for (Definition d : du.definitionsOf(u)) assertTrue(du.usesOf(d).contains(u), u + " <- " + d);
        }
        Stmt.Assign first = (Stmt.Assign) f.body().get(0);
        Definition x1 = du.reaching().definition(first.targets().get(0), "x");
        assertNotNull(x1);
        assertEquals(Definition.Kind.ASSIGN, x1.kind());
        assertEquals(1, du.usesOf(x1).size(), "x = a reaches only the return (the if overwrites it before print)");
        assertSame(du.reaching().definitionsAt(f.args().args().get(0)).get(0).node(), f.args().args().get(0));
    }

    @Test
    void statesAtBlockBoundariesAndBeforeSteps() {
        Stmt.FunctionDef f = function("""
                def f(a):
                    x = 1
                    y = x
                    del x
                    return y
                """);
        ControlFlowGraph g = ControlFlowGraph.of(f);
        ReachingDefinitions rd = ReachingDefinitions.of(g);
        Block body = g.blockOf(f.body().get(0));
        assertEquals(List.of("a"), rd.in(body).stream().map(Definition::name).toList());
        assertEquals(List.of("a", "x"), rd.before(body, 1).stream().map(Definition::name).sorted().toList());
        assertEquals(List.of("a", "y"), rd.out(body).stream().map(Definition::name).sorted().toList(), "del x killed x");
    }
}
