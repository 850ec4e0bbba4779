package dev.graphmend.ir.cfg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.PythonSourceParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Dominator trees, post-dominators and frontiers of small graphs, worked out by hand. */
class DominatorsTest {

    private static ControlFlowGraph graph(String src) {
        ParseResult r = new PythonSourceParser().parse(src);
        assertTrue(r.errors().isEmpty(), () -> r.errors().toString());
        return ControlFlowGraph.of((Stmt.FunctionDef) r.module().body().get(0));
    }

    /** "B1<B0 B2<B1 ..." : each covered block but the root with its immediate (post-)dominator. */
    private static String tree(Dominators d) {
        List<String> parts = new ArrayList<>();
        for (Block b : d.graph().blocks()) {
            if (!d.covers(b)) continue;
            Block i = d.immediateDominator(b);
            parts.add(b + "<" + (i == null ? "-" : i.toString()));
        }
        return String.join(" ", parts);
    }

    @Test
    void diamond() {
        // B0 entry, B1 if, B2 then, B3 else, B4 join, B5 exit, B6 raise exit
        ControlFlowGraph g = graph("""
                def f(a):
                    if a:
                        b()
                    else:
                        c()
                    d()
                """);
        Dominators dom = Dominators.of(g);
        assertEquals("B0<- B1<B0 B2<B1 B3<B1 B4<B1 B5<B4", tree(dom));
        assertFalse(dom.covers(g.raiseExit()), "nothing raises: the raise exit is unreachable");
        assertTrue(dom.dominates(g.block(1), g.block(4)));
        assertFalse(dom.dominates(g.block(2), g.block(4)));
        assertTrue(dom.dominates(g.block(4), g.block(4)));
        assertFalse(dom.strictlyDominates(g.block(4), g.block(4)));
        assertEquals(Set.of(g.block(4)), dom.frontier(g.block(2)));
        assertEquals(Set.of(g.block(4)), dom.frontier(g.block(3)));
        assertEquals(Set.of(), dom.frontier(g.block(1)));
        assertEquals(List.of(g.block(2), g.block(3), g.block(4)).stream().sorted((x, y) -> x.id() - y.id()).toList(),
                dom.children(g.block(1)).stream().sorted((x, y) -> x.id() - y.id()).toList());

        Dominators post = Dominators.postDominatorsOf(g);
        // Post-dominators: the join and the exit post-dominate everything before them; the exit and
        // the raise exit hang under the virtual end (null).
        assertEquals("B0<B1 B1<B4 B2<B4 B3<B4 B4<B5 B5<- B6<-", tree(post));
        assertTrue(post.dominates(g.block(4), g.block(1)));
        assertFalse(post.dominates(g.block(2), g.block(1)));
        assertEquals(Set.of(g.block(1)), post.frontier(g.block(2)), "B2 runs or not depending on B1's branch");
        assertEquals(Set.of(g.exit(), g.raiseExit()), Set.copyOf(post.roots()));
    }

    @Test
    void loopsAndAnExceptionalExit() {
        // B1 while, B2 body (if), B3 raise, B4 back edge, B5 after
        ControlFlowGraph g = graph("""
                def f(a):
                    while a:
                        if a > 9:
                            raise ValueError
                        a -= 1
                    return a
                """);
        Dominators dom = Dominators.of(g);
        assertEquals("B0<- B1<B0 B2<B1 B3<B2 B4<B2 B5<B1 B6<B5 B7<B3", tree(dom));
        assertEquals(Set.of(g.block(1)), dom.frontier(g.block(4)), "the loop header is where the body's dominance ends");
        assertEquals(Set.of(g.block(1)), dom.frontier(g.block(1)), "a loop header is in its own frontier");
        Dominators post = Dominators.postDominatorsOf(g);
        // From the body one path raises and one returns: only the virtual end post-dominates B2.
        // So does the header (the entry always goes on to it); the back-edge block always returns to the header.
        assertEquals("B0<B1 B1<- B2<- B3<B7 B4<B1 B5<B6 B6<- B7<-", tree(post));
        assertTrue(post.covers(g.block(2)));
        assertTrue(post.dominates(g.block(1), g.block(4)));
        assertFalse(post.dominates(g.exit(), g.block(1)));
    }

    @Test
    void endlessLoopsAreNotPostDominated() {
        ControlFlowGraph g = graph("""
                def f():
                    while True:
                        tick()
                """);
        Dominators post = Dominators.postDominatorsOf(g);
        assertFalse(post.covers(g.block(1)), "the loop never reaches an exit");
        assertFalse(post.dominates(g.exit(), g.block(1)));
        assertNull(post.immediateDominator(g.block(1)));
        assertFalse(g.exit().isReachable());
        assertFalse(Dominators.of(g).covers(g.exit()));
    }
}
