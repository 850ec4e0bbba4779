package dev.graphmend.ir.cfg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Node;
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
 * The graph of each case in {@code src/test/resources/cfg/fixtures.py}, written out next to the
 * code it comes from: every block, its steps and every edge with its kind must be exactly as
 * expected. Each graph must also pass {@link CfgInvariants}.
 */
class CfgFixturesTest {

    record Fixture(String title, String code, String expected) {}

    static List<Fixture> fixtures() throws IOException {
        String all;
        try (InputStream in = CfgFixturesTest.class.getResourceAsStream("/cfg/fixtures.py")) {
            assertNotNull(in, "cfg/fixtures.py is missing from the test resources");
            all = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<Fixture> out = new ArrayList<>();
        for (String chunk : all.split("(?m)^(?=#== )")) {
            if (!chunk.startsWith("#== ")) continue;
            List<String> lines = chunk.lines().toList();
            StringBuilder code = new StringBuilder();
            StringBuilder expected = new StringBuilder();
            for (String l : lines.subList(1, lines.size())) {
                if (l.startsWith("# B")) expected.append(l.substring(2)).append('\n');
                else code.append(l).append('\n');
            }
            out.add(new Fixture(lines.get(0).substring(4), code.toString(), expected.toString()));
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> graphsAreAsWrittenNextToTheirCode() throws IOException {
        List<Fixture> fs = fixtures();
        assertTrue(fs.size() >= 30, "expected at least 30 fixtures, found " + fs.size());
        return fs.stream().map(f -> DynamicTest.dynamicTest(f.title(), () -> {
            ParseResult r = new PythonSourceParser().parse(f.code());
            assertTrue(r.errors().isEmpty(), "fixture does not parse: " + r.errors());
            ControlFlowGraph g = ControlFlowGraph.ofScope(scope(f.title(), r));
            String actual = g.dump(r.source());
            assertEquals(f.expected(), actual, () -> "graph of:\n" + f.code() + "\nactual, as fixture lines:\n"
                    + actual.lines().map(l -> "# " + l).reduce("", (a, b) -> a + b + "\n"));
            assertEquals(List.of(), CfgInvariants.check(g));
        }));
    }

    static Node scope(String title, ParseResult r) {
        if (title.startsWith("module:")) return r.module();
        if (title.startsWith("lambda:")) {
            List<Node> scopes = new ArrayList<>();
            CfgInvariants.scopes(r.module(), scopes);
            return scopes.stream().filter(n -> n instanceof Expr.Lambda).findFirst().orElseThrow();
        }
        return r.module().body().stream()
                .filter(s -> s instanceof Stmt.FunctionDef || s instanceof Stmt.AsyncFunctionDef || s instanceof Stmt.ClassDef)
                .findFirst().orElseThrow();
    }

    /** The fixtures file must fail on a wrong graph: a deliberately wrong expectation is caught. */
    @Test
    void aWrongExpectationFails() throws IOException {
        Fixture f = fixtures().get(1);
        ParseResult r = new PythonSourceParser().parse(f.code());
        String actual = ControlFlowGraph.ofScope(scope(f.title(), r)).dump(r.source());
        String wrong = f.expected().replace("[TRUE]", "[FALSE]");
        assertTrue(!wrong.equals(actual) && f.expected().equals(actual));
    }
}
