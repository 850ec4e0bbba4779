package dev.graphmend.ir.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.graphmend.ir.ast.Stmt;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A class moved by an edit above it keeps one copy of its members: the class's body and its
 * member chunks hold the same nodes, so a later edit of one member re-parses that member and the
 * others stay the nodes they were (what the symbol table, the project and the memo reuse by
 * identity).
 */
class ChunkShiftTest {
    private static final String TEXT = String.join("\n",
            "import torch",
            "",
            "",
            "class Block(torch.nn.Module):",
            "    def __init__(self):",
            "        super().__init__()",
            "",
            "    def helper(self, x):",
            "        return x * 2",
            "",
            "    def forward(self, x):",
            "        return self.helper(x)",
            "",
            "    def last(self):",
            "        return 0",
            "");

    private static List<Stmt> methods(PythonDocument d) {
        return ((Stmt.ClassDef) d.module().body().get(1)).body();
    }

    @Test
    void aMovedClassKeepsItsOtherMembersWhenOneIsEdited() {
        PythonDocument v0 = PythonDocument.open(TEXT, 0);
        PythonDocument v1 = v0.apply(TextChange.replace(1, 0, 1, 0, "\n"), 1); // a line above the class
        assertEquals(PythonDocument.Update.TOP_LEVEL, v1.lastUpdate());
        assertEquals(6, ((Stmt.FunctionDef) methods(v1).get(0)).span().line());
        PythonDocument v2 = v1.apply(TextChange.replace(9, 19, 9, 20, "3"), 2); // `x * 2` -> `x * 3` in helper
        assertEquals(PythonDocument.Update.MEMBER, v2.lastUpdate());
        assertEquals(PythonDocument.open(v2.text(), 2).module(), v2.module());
        List<Stmt> before = methods(v1), after = methods(v2);
        assertNotSame(before.get(1), after.get(1), "the edited member is parsed again");
        assertSame(before.get(0), after.get(0), "__init__");
        assertSame(before.get(2), after.get(2), "forward");
        assertSame(before.get(3), after.get(3), "last");
    }
}
