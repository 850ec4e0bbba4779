package dev.graphmend.ir.parse;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import org.junit.jupiter.api.Test;

/**
 * A parser kept for reuse (the document model keeps one per thread) holds nothing of the text it
 * parsed last: ANTLR's prediction kept the last decision's rule context, whose parents lead to the
 * whole parse tree, and the parser its token stream, so a 5,300-line file's 12 MB of tree and
 * tokens stayed alive after its AST was built, until that thread parsed again.
 */
class ParserRetentionTest {
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    @Test
    void aReusedParserKeepsNoParseTree() {
        StringBuilder b = new StringBuilder("import torch\n\n");
        for (int i = 0; i < 2_000; i++) {
            b.append("class Block").append(i).append("(torch.nn.Module):\n")
                    .append("    def forward(self, x, y=None):\n")
                    .append("        if x.sum() > ").append(i).append(":\n")
                    .append("            y = [v * 2 for v in x if v > 0] + [self.scale(x, k=").append(i).append(")]\n")
                    .append("        return torch.where(x > 0, x, y[0]), {'a': (x, y), 'b': x.shape[-1]}\n\n");
        }
        String text = b.toString();
        // the DFA cache, shared by every parser, grows on the first parse of such a text: warm it first
        new PythonSourceParser().parse(text);
        long before = usedAfterCollection();
        PythonSourceParser kept = new PythonSourceParser();
        kept.parse(text);
        long after = usedAfterCollection();
        java.lang.ref.Reference.reachabilityFence(kept);
        long grewMb = (after - before) / (1024 * 1024);
        // the tree and tokens of these 10,000 lines take ~60 MB; the AST is not held
        assertTrue(grewMb < 8, "the kept parser holds " + grewMb + " MB after its parse");
    }

    private static long usedAfterCollection() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            used = Math.min(used, MEMORY.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
