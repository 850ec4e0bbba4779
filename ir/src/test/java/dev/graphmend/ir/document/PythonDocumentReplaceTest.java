package dev.graphmend.ir.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.ir.dump.GmAstDump;
import org.junit.jupiter.api.Test;

/**
 * {@link PythonDocument#replace} (how the analysis checks that a fix's edits still parse) gives
 * the tree and errors of parsing the replaced text from scratch, also when the replacement
 * breaks the file, and across CRLF line ends.
 */
class PythonDocumentReplaceTest {
    private static final String TEXT = String.join("\n",
            "import torch",
            "",
            "class Block(torch.nn.Module):",
            "    def __init__(self):",
            "        super().__init__()",
            "",
            "    def helper(self, x):",
            "        return x * 2",
            "",
            "    def forward(self, x):",
            "        if x.sum() > 0:",
            "            print('positive')",
            "        return self.helper(x)",
            "",
            "def main(y):",
            "    return y + 1",
            "");

    private static void check(String text, String target, String replacement, boolean breaks) {
        PythonDocument doc = PythonDocument.open(text, 0);
        int start = text.indexOf(target);
        assertTrue(start >= 0, target);
        String expected = text.substring(0, start) + replacement + text.substring(start + target.length());
        PythonDocument edited = doc.replace(start, start + target.length(), replacement, 1);
        PythonDocument scratch = PythonDocument.open(expected, 1);
        assertEquals(expected, edited.text());
        assertEquals(GmAstDump.dump(scratch.module()), GmAstDump.dump(edited.module()));
        assertEquals(scratch.errors(), edited.errors());
        assertEquals(breaks, !edited.errors().isEmpty(), () -> "errors: " + edited.errors());
    }

    @Test
    void aReplacementParsesAsTheWholeReplacedText() {
        // the skip-while-compiling fix's shape: wrap a statement in a new block
        check(TEXT, "            print('positive')",
                "            if not torch.compiler.is_compiling():\n                print('positive')", false);
        // in the last member of a class, and at module level
        check(TEXT, "return self.helper(x)", "return self.helper(x.clone())", false);
        check(TEXT, "return y + 1", "return torch.where(y > 0, y, -y)", false);
        // an insertion after the first line (a registration the defer fix adds)
        check(TEXT, "import torch\n", "import torch\ntorch._dynamo.config.reorderable_logging_functions.add(print)\n", false);
        // edits that break the file are seen as breaking it
        check(TEXT, "return x * 2", "return (x * 2", true);
        check(TEXT, "        return self.helper(x)", "      return self.helper(x)", true); // a dedent to no enclosing level
    }

    @Test
    void crlfLineEndsKeepTheirOffsets() {
        String crlf = TEXT.replace("\n", "\r\n");
        check(crlf, "return x * 2", "return x * 3", false);
        check(crlf, "print('positive')", "print('positive', x)", false);
        check(crlf, "def main(y):", "def main(y:", true);
    }
}
