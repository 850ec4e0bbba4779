package dev.graphmend.ir.cfg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Module;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.PythonSourceParser;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The graph API: lookups, conditions, scopes, renderings, immutability, and the size guard. */
class CfgApiTest {

    private static ParseResult parse(String src) {
        ParseResult r = new PythonSourceParser().parse(src);
        assertTrue(r.errors().isEmpty(), () -> r.errors().toString());
        return r;
    }

    @Test
    void blockOfFindsWhereEachStatementStarts() {
        ParseResult r = parse("""
                def f(a):
                    x = 1
                    if a > x:
                        for i in range(a):
                            x += i
                    try:
                        g()
                    finally:
                        h()
                    return x
                """);
        Stmt.FunctionDef f = (Stmt.FunctionDef) r.module().body().get(0);
        ControlFlowGraph g = ControlFlowGraph.of(f);
        Stmt assign = f.body().get(0);
        Stmt.If test = (Stmt.If) f.body().get(1);
        Stmt.For loop = (Stmt.For) test.body().get(0);
        Stmt.Try tryStmt = (Stmt.Try) f.body().get(2);
        Stmt fin = tryStmt.finalbody().get(0);

        Block b1 = g.blockOf(assign);
        assertSame(b1, g.blockOf(test), "the if's test ends the block of the statement before it");
        assertSame(test.test(), b1.condition());
        assertEquals(List.of(assign), b1.statements());
        Block iter = g.blockOf(loop);
        assertEquals(Step.Kind.ITER, iter.lastStep().kind());
        Block head = iter.successors().get(0).target();
        assertEquals(Step.Kind.NEXT, head.lastStep().kind());
        assertNull(head.condition(), "a loop head branches, but not on a truth value");
        assertEquals(List.of(EdgeKind.TRUE, EdgeKind.FALSE), head.successors().stream().map(Edge::kind).toList());
        assertTrue(head.predecessors().stream().anyMatch(e -> e.kind() == EdgeKind.LOOP_BACK));
        assertSame(g.blockOf(tryStmt), g.blockOf(tryStmt.body().get(0)), "a try starts where its body starts");
        assertEquals(2, g.blocksOf(fin).size(), "the finally body has a normal and an exceptional copy");
        assertSame(g.blocksOf(fin).get(0), g.blockOf(fin));
        assertNull(g.blockOf(new Stmt.Pass(assign.span())), "lookups are by identity, not by equal content");
        assertTrue(g.blocks().stream().allMatch(Block::isReachable) || !g.raiseExit().isReachable());
        assertSame(g, b1.graph());
    }

    @Test
    void assertsBranchOnTheirTest() {
        ParseResult r = parse("def f(a):\n    assert a, 'no'\n    return a\n");
        Stmt.FunctionDef f = (Stmt.FunctionDef) r.module().body().get(0);
        ControlFlowGraph g = ControlFlowGraph.of(f);
        Stmt.Assert a = (Stmt.Assert) f.body().get(0);
        Block b = g.blockOf(a);
        assertSame(a.test(), b.condition());
        assertEquals(List.of(new Edge(b, EdgeKind.FALSE, g.raiseExit())),
                b.successors().stream().filter(e -> e.kind() == EdgeKind.FALSE).toList());
    }

    @Test
    void everyScopeOfAModuleHasItsGraph() {
        ParseResult r = parse("""
                import os
                def outer(cb=lambda v: v + 1):
                    def inner():
                        return [lambda: i for i in range(3)]
                    return inner
                class K:
                    def method(self):
                        pass
                """);
        Module m = r.module();
        ControlFlowGraphs all = ControlFlowGraphs.of(m);
        assertSame(m, all.module().scope());
        List<String> kinds = all.all().stream().map(g -> g.scope().pyType()).toList();
        assertEquals(List.of("Module", "FunctionDef", "Lambda", "FunctionDef", "Lambda", "ClassDef", "FunctionDef"), kinds);
        Stmt.FunctionDef outer = (Stmt.FunctionDef) m.body().get(1);
        assertSame(outer, all.of(outer).scope());
        assertNull(all.of(outer.body().get(1)), "a return is no scope");
        // A nested def is one statement of the outer graph; its body is not there.
        ControlFlowGraph og = all.of(outer);
        assertSame(og.blockOf(outer.body().get(0)), og.blockOf(outer.body().get(1)));
        Stmt.FunctionDef inner = (Stmt.FunctionDef) outer.body().get(0);
        assertNull(og.blockOf(inner.body().get(0)));
        for (ControlFlowGraph g : all.all()) assertEquals(List.of(), CfgInvariants.check(g));
    }

    @Test
    void brokenCodeStillGetsGraphs() {
        ParseResult r = new PythonSourceParser().parse("""
                def f(a):
                    if a
                        return 1
                    while True:
                        break
                    else:
                        continue
                def g(:
                    pass
                break
                return 2
                """);
        assertFalse(r.errors().isEmpty());
        ControlFlowGraphs all = ControlFlowGraphs.of(r.module());
        for (ControlFlowGraph g : all.all()) {
            assertNotNull(g.dump(r.source()));
            DefUse.of(g);
            Dominators.postDominatorsOf(g);
        }
    }

    @Test
    void renderingsNameBlocksStepsAndEdges() {
        ParseResult r = parse("def f(a):\n    while a:\n        a -= 1\n    return a\n");
        ControlFlowGraph g = ControlFlowGraph.of((Stmt.FunctionDef) r.module().body().get(0));
        String text = g.toString();
        assertTrue(text.contains("B1: while Name@2:10 -> B2 [TRUE], B3 [FALSE]"), text);
        assertTrue(text.contains("B2: AugAssign@3:8 -> B1 [LOOP_BACK]"), text);
        String dump = g.dump(r.source());
        assertTrue(dump.contains("B2: a -= 1 -> B1 [LOOP_BACK]"), dump);
        String dot = g.toDot(r.source());
        assertTrue(dot.startsWith("digraph cfg {"), dot);
        assertTrue(dot.contains("B2 -> B1 [label=\"LOOP_BACK\"];"), dot);
        assertTrue(dot.contains("a -= 1"), dot);
    }

    @Test
    void graphsAreImmutableAndDeterministic() {
        String src = "def f(a):\n    try:\n        return g(a)\n    except E as e:\n        pass\n    finally:\n        h()\n";
        ParseResult r = parse(src);
        ControlFlowGraph g = ControlFlowGraph.of((Stmt.FunctionDef) r.module().body().get(0));
        assertThrows(UnsupportedOperationException.class, () -> g.blocks().clear());
        assertThrows(UnsupportedOperationException.class, () -> g.entry().successors().clear());
        assertThrows(UnsupportedOperationException.class, () -> g.entry().steps().clear());
        assertThrows(UnsupportedOperationException.class, () -> g.entry().predecessors().clear());
        ParseResult again = parse(src);
        assertEquals(g.dump(r.source()), ControlFlowGraph.of((Stmt.FunctionDef) again.module().body().get(0)).dump(again.source()));
    }

    @Test
    void deeplyNestedFinallyBodiesAreSharedInsteadOfCopied() {
        StringBuilder src = new StringBuilder("def f(a, b, c, x):\n");
        String indent = "    ";
        for (int d = 0; d < 8; d++) {
            src.append(indent).append("for i in x:\n")
               .append(indent).append("    try:\n")
               .append(indent).append("        if a: return 1\n")
               .append(indent).append("        if b: break\n")
               .append(indent).append("        if c: continue\n")
               .append(indent).append("    finally:\n");
            indent += "        ";
        }
        src.append(indent).append("g()\n");
        ParseResult r = parse(src.toString());
        long t0 = System.nanoTime();
        ControlFlowGraph g = ControlFlowGraph.of((Stmt.FunctionDef) r.module().body().get(0));
        assertTrue(System.nanoTime() - t0 < 10_000_000_000L, "copying 5^8 finally bodies would take seconds and gigabytes");
        assertTrue(g.sharedFinally());
        assertTrue(g.blocks().size() < 1000, g.blocks().size() + " blocks");
        assertEquals(List.of(), CfgInvariants.check(g));
        ParseResult small = parse("def f():\n    try:\n        pass\n    finally:\n        g()\n");
        assertFalse(ControlFlowGraph.of((Stmt.FunctionDef) small.module().body().get(0)).sharedFinally());
    }

    @Test
    void lambdasAndClassBodies() {
        ParseResult r = parse("class C:\n    x = 1\n    f = lambda self, y=x: self.x + y\n");
        Stmt.ClassDef c = (Stmt.ClassDef) r.module().body().get(0);
        ControlFlowGraph cg = ControlFlowGraph.ofClass(c);
        assertEquals(2, cg.blockOf(c.body().get(0)).statements().size());
        Expr.Lambda l = (Expr.Lambda) ((Stmt.Assign) c.body().get(1)).value();
        ControlFlowGraph lg = ControlFlowGraph.of(l);
        assertEquals(Step.Kind.PARAMETERS, lg.entry().steps().get(0).kind());
        DefUse du = DefUse.of(lg);
        List<Node> defs = new ArrayList<>();
        for (Expr.Name u : du.uses()) for (Definition d : du.definitionsOf(u)) defs.add(d.node());
        assertEquals(List.of(l.args().args().get(0), l.args().args().get(1)), defs, "self and y are the lambda's parameters");
    }
}
