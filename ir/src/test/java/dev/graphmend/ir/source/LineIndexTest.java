package dev.graphmend.ir.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class LineIndexTest {
    /** U+1D518 MATHEMATICAL FRAKTUR CAPITAL U: 1 code point, 2 UTF-16 units, 4 UTF-8 bytes. */
    static final String FRAKTUR_U = "\uD835\uDD18";

    /**
     * An index carried over an edit is the index of the edited text: random texts (empty lines, a
     * last line with or without newline, BMP and astral characters, lone surrogates) and random
     * replacements (inserting or deleting newlines, at line starts and ends, at the text's ends),
     * compared on every line and column; and a text that does not keep the old one around the range
     * is indexed whole.
     */
    @Test
    void editedIndexEqualsTheIndexOfTheEditedText() {
        Random rnd = new Random(17);
        String[] pieces = {"a", "x = 1", "", " ", "\n", "\n\n", FRAKTUR_U, "\u00e9", "\uD800", "def f():\n    pass\n"};
        for (int round = 0; round < 3000; round++) {
            StringBuilder b = new StringBuilder();
            for (int i = rnd.nextInt(12); i >= 0; i--) b.append(pieces[rnd.nextInt(pieces.length)]);
            String before = b.toString();
            int start = rnd.nextInt(before.length() + 1);
            int end = start + rnd.nextInt(before.length() - start + 1);
            StringBuilder ins = new StringBuilder();
            for (int i = rnd.nextInt(3); i > 0; i--) ins.append(pieces[rnd.nextInt(pieces.length)]);
            String after = before.substring(0, start) + ins + before.substring(end);
            LineIndex edited = LineIndex.edited(new LineIndex(before), start, end, ins.toString(), after);
            assertSameIndex(new LineIndex(after), edited, before + " -> " + after);
        }
        // lengths or inserted text that disagree: indexed whole
        assertSameIndex(new LineIndex("b\nc"), LineIndex.edited(new LineIndex("a\nb"), 0, 0, "", "b\nc"), "length");
        assertSameIndex(new LineIndex("x\nb"), LineIndex.edited(new LineIndex("a\nb"), 0, 1, "y", "x\nb"), "inserted");
    }

    private static void assertSameIndex(LineIndex want, LineIndex got, String what) {
        assertEquals(want.text(), got.text(), what);
        assertEquals(want.lineCount(), got.lineCount(), what);
        assertEquals(want.toString(), got.toString(), what); // line count and total code points
        for (int line = 1; line <= want.lineCount(); line++) {
            assertEquals(want.lineStartCodePoint(line), got.lineStartCodePoint(line), what + " line " + line);
            assertEquals(want.lineText(line), got.lineText(line), what + " line " + line);
            int cps = want.lineText(line).codePointCount(0, want.lineText(line).length());
            for (int col = 0; col <= cps + 1; col++) {
                assertEquals(want.utf8Column(line, col), got.utf8Column(line, col), what + " utf8 " + line + ":" + col);
                assertEquals(want.utf16Column(line, col), got.utf16Column(line, col), what + " utf16 " + line + ":" + col);
            }
        }
        for (int c = 0; c <= want.text().length(); c++) assertEquals(want.lineOfCharIndex(c), got.lineOfCharIndex(c), what);
    }

    /** sameLine agrees with comparing lineText, for every pair of lines of two random texts (last lines, empty lines, astral chars). */
    @Test
    void sameLineAgreesWithLineText() {
        Random rnd = new Random(7);
        String[] pieces = {"a", "ab", "", " ", FRAKTUR_U, "\u00e9", "x = 1"};
        for (int round = 0; round < 200; round++) {
            StringBuilder a = new StringBuilder(), b = new StringBuilder();
            for (int i = rnd.nextInt(6); i >= 0; i--) a.append(pieces[rnd.nextInt(pieces.length)]).append(rnd.nextBoolean() ? "\n" : "");
            for (int i = rnd.nextInt(6); i >= 0; i--) b.append(pieces[rnd.nextInt(pieces.length)]).append(rnd.nextBoolean() ? "\n" : "");
            LineIndex x = new LineIndex(a.toString()), y = new LineIndex(b.toString());
            for (int i = 1; i <= x.lineCount(); i++) {
                for (int j = 1; j <= y.lineCount(); j++) {
                    assertEquals(x.lineText(i).equals(y.lineText(j)), x.sameLine(i, y, j), a + " / " + b + " lines " + i + ", " + j);
                }
            }
        }
    }

    @Test
    void lineCounts() {
        assertEquals(1, new LineIndex("").lineCount());
        assertEquals(1, new LineIndex("a").lineCount());
        assertEquals(2, new LineIndex("a\n").lineCount());
        assertEquals(2, new LineIndex("a\nb").lineCount());
        assertEquals(3, new LineIndex("\n\n").lineCount());
        assertEquals(1, new LineIndex(null).lineCount());
    }

    @Test
    void lineStartsAndText() {
        LineIndex li = new LineIndex("ab\n\nc" + FRAKTUR_U + "d\n");
        assertEquals(4, li.lineCount());
        assertEquals(0, li.lineStartCodePoint(1));
        assertEquals(3, li.lineStartCodePoint(2));
        assertEquals(4, li.lineStartCodePoint(3));
        assertEquals(8, li.lineStartCodePoint(4)); // c, U+1D518, d, \n = 4 code points
        assertEquals("ab", li.lineText(1));
        assertEquals("", li.lineText(2));
        assertEquals("c" + FRAKTUR_U + "d", li.lineText(3));
        assertEquals("", li.lineText(4));
        // clamping
        assertEquals(0, li.lineStartCodePoint(0));
        assertEquals(0, li.lineStartCodePoint(-5));
        assertEquals(8, li.lineStartCodePoint(99));
        assertEquals("ab", li.lineText(-1));
        assertEquals("", li.lineText(1000));
    }

    @Test
    void lineOfCodePoint() {
        LineIndex li = new LineIndex("ab\n\nc" + FRAKTUR_U + "d\nxy");
        // offsets: a0 b1 \n2 | \n3 | c4 U5 d6 \n7 | x8 y9
        int[] expected = {1, 1, 1, 2, 3, 3, 3, 3, 4, 4};
        for (int cp = 0; cp < expected.length; cp++) {
            assertEquals(expected[cp], li.lineOfCodePoint(cp), "offset " + cp);
        }
        assertEquals(4, li.lineOfCodePoint(10)); // end of text
        assertEquals(4, li.lineOfCodePoint(Integer.MAX_VALUE));
        assertEquals(1, li.lineOfCodePoint(-1));
        assertEquals(1, li.lineOfCodePoint(Integer.MIN_VALUE));
        assertEquals(1, new LineIndex("").lineOfCodePoint(0));
        assertEquals(1, new LineIndex("").lineOfCodePoint(7));
        assertEquals(2, new LineIndex("\n").lineOfCodePoint(1));
    }

    @Test
    void asciiLineIsIdentityAndClamps() {
        LineIndex li = new LineIndex("def f(x):\n    return x\n");
        for (int c = 0; c <= 12; c++) {
            assertEquals(c, li.utf8Column(2, c));
            assertEquals(c, li.utf16Column(2, c));
            assertEquals(c, li.cpColumnFromUtf8(2, c));
            assertEquals(c, li.cpColumnFromUtf16(2, c));
            assertEquals(c, li.utf16ColumnFromUtf8(2, c));
            assertEquals(c, li.utf8ColumnFromUtf16(2, c));
        }
        assertEquals(12, li.utf8Column(2, 13));
        assertEquals(12, li.utf16Column(2, 500));
        assertEquals(12, li.cpColumnFromUtf8(2, 500));
        assertEquals(12, li.cpColumnFromUtf16(2, Integer.MAX_VALUE));
        assertEquals(12, li.utf16ColumnFromUtf8(2, 13));
        assertEquals(12, li.utf8ColumnFromUtf16(2, 13));
        assertEquals(0, li.utf8Column(2, -1));
        assertEquals(0, li.cpColumnFromUtf16(2, Integer.MIN_VALUE));
        assertEquals(9, li.utf8Column(0, 100)); // line 0 -> line 1, "def f(x):"
        assertEquals(0, li.utf8Column(99, 100)); // past the end -> last (empty) line
    }

    @Test
    void latin1AndCjkColumns() {
        // 'é' is 2 UTF-8 bytes, '中' 3; both 1 UTF-16 unit.
        LineIndex li = new LineIndex("x = 'é中'; y = 1");
        assertEquals(5, li.utf8Column(1, 5)); // before é
        assertEquals(7, li.utf8Column(1, 6)); // after é
        assertEquals(10, li.utf8Column(1, 7)); // after 中
        assertEquals(13, li.utf8Column(1, 10)); // 'y'
        assertEquals(10, li.cpColumnFromUtf8(1, 13));
        assertEquals(10, li.utf16Column(1, 10));
        assertEquals(10, li.utf16ColumnFromUtf8(1, 13));
        assertEquals(13, li.utf8ColumnFromUtf16(1, 10));
        // inside a character: round down
        assertEquals(5, li.cpColumnFromUtf8(1, 6)); // inside é
        assertEquals(6, li.cpColumnFromUtf8(1, 8)); // inside 中
        assertEquals(6, li.cpColumnFromUtf8(1, 9));
        assertEquals(6, li.utf16ColumnFromUtf8(1, 9));
    }

    @Test
    void astralColumns() {
        String line = "s = '" + FRAKTUR_U + "' + x";
        LineIndex li = new LineIndex(line);
        // code points: s0 ' '1 =2 ' '3 '4 U5 '6 ...; x is at cp 10
        assertEquals(5, li.utf16Column(1, 5));
        assertEquals(7, li.utf16Column(1, 6));
        assertEquals(11, li.utf16Column(1, 10));
        assertEquals(9, li.utf8Column(1, 6));
        assertEquals(13, li.utf8Column(1, 10));
        assertEquals(10, li.cpColumnFromUtf16(1, 11));
        assertEquals(10, li.cpColumnFromUtf8(1, 13));
        assertEquals(11, li.utf16ColumnFromUtf8(1, 13));
        assertEquals(13, li.utf8ColumnFromUtf16(1, 11));
        // inside the surrogate pair / the 4 bytes: round down to the character's start
        assertEquals(5, li.cpColumnFromUtf16(1, 6));
        assertEquals(5, li.utf16ColumnFromUtf8(1, 6));
        assertEquals(5, li.utf16ColumnFromUtf8(1, 8));
        assertEquals(5, li.cpColumnFromUtf8(1, 8));
        assertEquals(5, li.utf8ColumnFromUtf16(1, 6));
        // end clamps
        assertEquals(line.length(), li.utf16Column(1, 1000));
        assertEquals(line.getBytes(StandardCharsets.UTF_8).length, li.utf8Column(1, 1000));
        assertEquals(line.codePointCount(0, line.length()), li.cpColumnFromUtf16(1, 1000));
    }

    @Test
    void roundTripsOnEveryColumnOfAMixedLine() {
        String mixed = "a é 中 " + FRAKTUR_U + " ß\u00A0€" + FRAKTUR_U + FRAKTUR_U + "z\u0301 😀!";
        String text = "first\n" + mixed + "\nlast";
        LineIndex li = new LineIndex(text);
        assertEquals(mixed, li.lineText(2));
        int cpLen = mixed.codePointCount(0, mixed.length());
        for (int cp = 0; cp <= cpLen; cp++) {
            String prefix = mixed.substring(0, mixed.offsetByCodePoints(0, cp));
            int u8 = li.utf8Column(2, cp);
            int u16 = li.utf16Column(2, cp);
            assertEquals(prefix.getBytes(StandardCharsets.UTF_8).length, u8, "utf8 of cp " + cp);
            assertEquals(prefix.length(), u16, "utf16 of cp " + cp);
            assertEquals(cp, li.cpColumnFromUtf8(2, u8));
            assertEquals(cp, li.cpColumnFromUtf16(2, u16));
            assertEquals(u16, li.utf16ColumnFromUtf8(2, u8));
            assertEquals(u8, li.utf8ColumnFromUtf16(2, u16));
        }
    }

    @Test
    void loneSurrogatesCountAsOneCodePointAndThreeBytes() {
        String line = "a\uD800b\uDC00c";
        LineIndex li = new LineIndex(line);
        assertEquals(5, li.utf16Column(1, 5));
        assertEquals(1 + 3 + 1 + 3 + 1, li.utf8Column(1, 5));
        assertEquals(4, li.utf8Column(1, 1 + 1));
        assertEquals(2, li.cpColumnFromUtf8(1, 4));
        assertEquals(1, li.cpColumnFromUtf8(1, 3));
        assertEquals(2, new LineIndex("\uD800\n\uDC00").lineStartCodePoint(2));
    }

    /** Every conversion, on random lines, against a slow reference that walks code points. */
    @Test
    void randomTextsAgainstReference() {
        Random rnd = new Random(42);
        String[] pieces = {"a", "Z", " ", "\t", "é", "ß", "中", "日本", FRAKTUR_U, "😀", "\n", "\n", "\uD800", "\uDFFF", "\u00A0", "\u0301"};
        for (int round = 0; round < 300; round++) {
            StringBuilder sb = new StringBuilder();
            int len = rnd.nextInt(40);
            for (int i = 0; i < len; i++) {
                sb.append(rnd.nextInt(3) == 0 ? pieces[rnd.nextInt(pieces.length)] : String.valueOf((char) ('a' + rnd.nextInt(26))));
            }
            String text = sb.toString();
            LineIndex li = new LineIndex(text);
            List<String> lines = splitLf(text);
            assertEquals(lines.size(), li.lineCount(), text);
            int cpOffset = 0;
            for (int l = 1; l <= lines.size(); l++) {
                String line = lines.get(l - 1);
                assertEquals(line, li.lineText(l));
                assertEquals(cpOffset, li.lineStartCodePoint(l));
                int[] cps = line.codePoints().toArray();
                for (int k = 0; k <= cps.length; k++) {
                    assertEquals(l, li.lineOfCodePoint(cpOffset + k));
                }
                int u8len = refUtf8(cps, cps.length);
                int u16len = refUtf16(cps, cps.length);
                for (int c = -2; c <= cps.length + 2; c++) {
                    int cc = Math.max(0, Math.min(c, cps.length));
                    assertEquals(refUtf8(cps, cc), li.utf8Column(l, c));
                    assertEquals(refUtf16(cps, cc), li.utf16Column(l, c));
                }
                for (int u = -2; u <= u8len + 2; u++) {
                    int cp = refCpFromUtf8(cps, u);
                    assertEquals(cp, li.cpColumnFromUtf8(l, u), "cpColumnFromUtf8 " + u + " in " + line);
                    assertEquals(refUtf16(cps, cp), li.utf16ColumnFromUtf8(l, u));
                }
                for (int u = -2; u <= u16len + 2; u++) {
                    int cp = refCpFromUtf16(cps, u);
                    assertEquals(cp, li.cpColumnFromUtf16(l, u), "cpColumnFromUtf16 " + u + " in " + line);
                    assertEquals(refUtf8(cps, cp), li.utf8ColumnFromUtf16(l, u));
                }
                cpOffset += cps.length + 1;
            }
        }
    }

    @Test
    void bigInputIsIndexedQuickly() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 200_000; i++) {
            sb.append("x").append(i).append(" = 'é中").append(i % 7 == 0 ? FRAKTUR_U : "").append("'\n");
        }
        String text = sb.toString();
        long t0 = System.nanoTime();
        LineIndex li = new LineIndex(text);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(200_001, li.lineCount());
        assertEquals(3, li.lineOfCodePoint(li.lineStartCodePoint(3) + 2));
        assertEquals(li.lineCount(), li.lineOfCodePoint(Integer.MAX_VALUE));
        assertTrue(ms < 5_000, "indexing 200k lines took " + ms + " ms");
        for (int l = 1; l <= li.lineCount(); l += 997) {
            int cpEnd = li.lineText(l).codePointCount(0, li.lineText(l).length());
            assertEquals(li.lineText(l).getBytes(StandardCharsets.UTF_8).length, li.utf8Column(l, cpEnd));
        }
    }

    @Test
    void sourceTextBuildsOneIndexSafelyAcrossThreads() throws Exception {
        SourceText st = SourceText.of("a\r\nb\rc\n" + "d\n".repeat(10_000));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<LineIndex>> tasks = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                tasks.add(st::lines);
            }
            for (Future<LineIndex> f : pool.invokeAll(tasks)) {
                LineIndex li = f.get();
                assertEquals(10_004, li.lineCount());
                assertEquals("c", li.lineText(3));
            }
        } finally {
            pool.shutdownNow();
        }
        assertSame(st.lines(), st.lines());
    }

    // ---- reference implementation ----

    static List<String> splitLf(String text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                out.add(text.substring(start, i));
                start = i + 1;
            }
        }
        out.add(text.substring(start));
        return out;
    }

    static int u8(int cp) {
        return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    }

    static int refUtf8(int[] cps, int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += u8(cps[i]);
        }
        return s;
    }

    static int refUtf16(int[] cps, int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += Character.charCount(cps[i]);
        }
        return s;
    }

    static int refCpFromUtf8(int[] cps, int u) {
        int best = 0;
        for (int k = 0; k <= cps.length; k++) {
            if (refUtf8(cps, k) <= u) {
                best = k;
            }
        }
        return best;
    }

    static int refCpFromUtf16(int[] cps, int u) {
        int best = 0;
        for (int k = 0; k <= cps.length; k++) {
            if (refUtf16(cps, k) <= u) {
                best = k;
            }
        }
        return best;
    }
}
