package dev.graphmend.passes.analysis;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.ir.source.LineIndex;
import org.junit.jupiter.api.Test;

/** Suppression comments are comments: markers inside strings, also strings spanning lines, do not count. */
class SuppressionsTest {
    private static final String TEXT = String.join("\n",
            "x = 1  # graphmend: ignore[GM101]",                    // 1: suppressed
            "doc = \"\"\"",                                           // 2: opens a string
            "y = 2  # graphmend: ignore",                            // 3: inside the string
            "z = '''  # noqa: GM102",                                 // 4: still inside (''' in \"\"\")
            "\"\"\"  # noqa: GM103",                                  // 5: closes it; a comment
            "s = \"'''\"  # noqa: GM201",                             // 6: ''' in a one-line string; a comment
            "t = 3  # noqa: GM202",                                  // 7: outside any string
            "u = '''a",                                               // 8: opens with '''
            "# graphmend: ignore",                                   // 9: inside
            "b'''  # graphmend: ignore[GM204]",                      // 10: closes; a comment
            "v = 'not # graphmend: ignore'",                         // 11: in a string
            "w = 4  # noqa");                                        // 12: bare noqa: not ours

    @Test
    void markersInsideStringsSpanningLinesAreNotComments() {
        Suppressions s = Suppressions.scan(new LineIndex(TEXT));
        assertTrue(s.suppresses(1, "GM101"));
        assertFalse(s.suppresses(1, "GM102"));
        assertFalse(s.suppresses(3, "GM101"));
        assertFalse(s.suppresses(4, "GM102"));
        assertTrue(s.suppresses(5, "GM103"));
        assertTrue(s.suppresses(6, "GM201"));
        assertTrue(s.suppresses(7, "GM202"));
        assertFalse(s.suppresses(9, "GM101"));
        assertTrue(s.suppresses(10, "GM204"));
        assertFalse(s.suppresses(10, "GM101"));
        assertFalse(s.suppresses(11, "GM101"));
        assertFalse(s.suppresses(12, "GM101"));
    }
}
