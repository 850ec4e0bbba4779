package dev.graphmend.ir.document;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The line starts carried over an edit ({@link PythonDocument#lineStartsAfter}) equal those of the new text scanned afresh. */
class LineStartsTest {
    private static final String[] PIECES = {"", "a", "\n", "\r", "\r\n", "\n\r", "xy", "\r\r\n", "é\n", "😀", "  \n\n"};

    @Test
    void carriedStartsEqualAFreshScan() {
        Random rnd = new Random(7);
        for (int round = 0; round < 20_000; round++) {
            StringBuilder sb = new StringBuilder();
            int parts = rnd.nextInt(12);
            for (int i = 0; i < parts; i++) sb.append(PIECES[rnd.nextInt(PIECES.length)]);
            String text = sb.toString();
            int start = rnd.nextInt(text.length() + 1);
            int end = start + rnd.nextInt(text.length() - start + 1);
            String inserted = PIECES[rnd.nextInt(PIECES.length)] + PIECES[rnd.nextInt(PIECES.length)];
            String next = text.substring(0, start) + inserted + text.substring(end);
            int[] carried = PythonDocument.lineStartsAfter(PythonDocument.lineStarts(text), start, end, inserted, next);
            assertArrayEquals(PythonDocument.lineStarts(next), carried,
                    () -> "text " + text.replace("\r", "\\r").replace("\n", "\\n") + " [" + start + ", " + end + ") <- "
                            + inserted.replace("\r", "\\r").replace("\n", "\\n"));
        }
    }
}
