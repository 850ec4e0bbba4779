package dev.graphmend.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.cli.CheckCommandTest.Run;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.passes.model.Diagnostic;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 40, finding 5: the "not fixed" lines gave the lines of the text after the earlier rounds'
 * edits (a logger fix that inserts 17 lines sent "model.py:28: GM101 not fixed" 17 lines below the
 * branch on line 11). Every line {@code fix} prints is the original file's.
 */
class OriginalLinesTest {
    private static final String MODEL = String.join("\n",
            "import logging",
            "import torch",
            "",
            "logger = logging.getLogger(__name__)",
            "",
            "",
            "@torch.compile",
            "def f(x):",
            "    logger.warning(\"hi\")",      // 9: fixed, by a helper inserted above the function
            "    y = x * 2",
            "    if y.sum() > 0:",            // 11: not fixable (a branch that returns)
            "        y = y + 1",
            "        z = y.tolist()",         // 13: no rewrite
            "        return z",
            "    n = y.sum().item()",         // 15: no rewrite
            "    return y * n",
            "");

    @Test
    void fixPrintsTheOriginalLines(@TempDir Path dir) throws Exception {
        Path model = Files.writeString(dir.resolve("model.py"), MODEL);
        for (boolean diff : new boolean[] {true, false}) {
            Run r = diff ? CheckCommandTest.run("fix", "--diff", model.toString()) : CheckCommandTest.run("fix", model.toString());
            String status = diff ? r.err() : r.out();
            assertEquals(1, r.code(), status);
            for (String line : List.of(":9: GM102 fixed", ":11: GM101 not fixed", ":13: GM201 not fixed", ":15: GM201 not fixed")) {
                assertTrue(status.contains(model + line), line + " in\n" + status);
            }
        }
    }

    private static Diagnostic.Edit edit(int line, int col, int endLine, int endCol, String text) {
        return new Diagnostic.Edit(new Span(line, col, endLine, endCol), text);
    }

    /** Lines below an edit move by what it added; a line it wrote maps to where it starts; rounds compose. */
    @Test
    void linesMapBackThroughEachRound() {
        // round 1: three lines inserted before line 5, line 8 replaced by one line, lines 10-11 joined
        List<Diagnostic.Edit> first = List.of(edit(8, 4, 8, 9, "a"), edit(5, 0, 5, 0, "x\ny\nz\n"), edit(10, 4, 11, 2, "b"));
        // round 2 (in round 1's lines): line 2 becomes two lines
        List<Diagnostic.Edit> second = List.of(edit(2, 0, 2, 3, "p\nq"));
        List<List<Diagnostic.Edit>> rounds = List.of(first, second);
        int[][] round1 = {{4, 4}, {5, 5}, {7, 5}, {8, 5}, {9, 6}, {11, 8}, {13, 10}, {14, 12}, {20, 18}};
        for (int[] c : round1) assertEquals(c[1], OriginalLines.through(rounds, 1, c[0]), "round 1's line " + c[0]);
        assertEquals(1, OriginalLines.through(rounds, 2, 1));
        assertEquals(2, OriginalLines.through(rounds, 2, 3), "inside round 2's edit");
        assertEquals(5, OriginalLines.through(rounds, 2, 9), "round 2's line 9 is round 1's 8, the original's 5");
        assertEquals(18, OriginalLines.through(rounds, 2, 21));
        assertEquals(7, OriginalLines.through(rounds, 0, 7), "round 0 is the original");
    }

    @Test
    void aDiffMapsInsertedAndMovedLines() {
        OriginalLines map = OriginalLines.ofDiff("a\nb\nc\n", "a\nnew1\nnew2\nb\nc\n");
        assertEquals(1, map.original(1));
        assertEquals(2, map.original(2), "inserted before line 2");
        assertEquals(2, map.original(4));
        assertEquals(3, map.original(5));
    }
}
