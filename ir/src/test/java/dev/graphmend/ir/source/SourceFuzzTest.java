package dev.graphmend.ir.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Random input: decoding never throws and what it returns is self-consistent. */
class SourceFuzzTest {
    /** Declarations to put in front of random bytes, so every decoder kind gets fuzzed. */
    static final String[] COOKIES = {
        "", "", "", "# coding: latin-1\n", "# coding: utf-8\n", "# coding: utf8\n", "# coding: ascii\n",
        "# coding: cp1252\n", "# coding: cp037\n", "# coding: koi8-r\n", "# coding: euc-jp\n", "# coding: shift_jis\n",
        "# coding: gb18030\n", "# coding: big5\n", "# coding: iso2022_jp\n", "# coding: utf-16\n", "# coding: utf-16-be\n",
        "# coding: utf-32\n", "# coding: utf-32-le\n", "# coding: foobar\n", "# coding: rot13\n", "# coding: undefined\n",
        "# coding: utf-7\n", "#!/bin/python\r# coding: latin-1\r", "\u00ef\u00bb\u00bf", "\u00ef\u00bb\u00bf# coding: latin-1\n",
    };

    static final String SPECIAL = "\r\n \t#coding\u00e9:=-_.\u0000\u00ef\u00bb\u00bf";

    @Test
    void tenThousandRandomArraysNeverThrow() {
        Random rnd = new Random(20261101L);
        for (int round = 0; round < 10_000; round++) {
            byte[] bytes = randomBytes(rnd, round);
            SourceText st;
            try {
                st = SourceText.decode(bytes);
            } catch (Throwable t) {
                fail("decode threw on " + HexFormat.of().formatHex(bytes), t);
                return;
            }
            checkInvariants(st, bytes);
        }
    }

    @Test
    void randomStringsNeverThrow() {
        Random rnd = new Random(7);
        for (int round = 0; round < 3_000; round++) {
            StringBuilder sb = new StringBuilder();
            int n = rnd.nextInt(60);
            for (int i = 0; i < n; i++) {
                sb.append((char) (rnd.nextInt(4) == 0 ? rnd.nextInt(0x10000) : rnd.nextInt(0x80)));
            }
            SourceText st = SourceText.of(sb.toString());
            checkInvariants(st, null);
        }
    }

    /** Valid UTF-8 decodes exactly as Java decodes it, without problems. */
    @Test
    void validUtf8RoundTrips() {
        Random rnd = new Random(11);
        for (int round = 0; round < 3_000; round++) {
            StringBuilder sb = new StringBuilder("x");
            int n = rnd.nextInt(60);
            for (int i = 0; i < n; i++) {
                int cp;
                do {
                    cp = rnd.nextInt(4) == 0 ? rnd.nextInt(0x110000) : 1 + rnd.nextInt(0x7F);
                } while (Character.getType(cp) == Character.SURROGATE);
                sb.appendCodePoint(cp);
            }
            String s = sb.toString();
            SourceText st = SourceText.decode(s.getBytes(StandardCharsets.UTF_8));
            assertEquals(s, st.text());
            assertEquals(0, st.problems().size(), st.problems().toString());
        }
    }

    static byte[] randomBytes(Random rnd, int round) {
        String cookie = COOKIES[rnd.nextInt(COOKIES.length)];
        byte[] prefix = cookie.getBytes(StandardCharsets.ISO_8859_1);
        int n = rnd.nextInt(round % 50 == 0 ? 2000 : 120);
        byte[] body = new byte[n];
        int mode = rnd.nextInt(4);
        for (int i = 0; i < n; i++) {
            switch (mode) {
                case 0 -> body[i] = (byte) rnd.nextInt(256); // anything
                case 1 -> body[i] = (byte) (rnd.nextInt(8) == 0 ? 0x80 + rnd.nextInt(0x80) : 0x20 + rnd.nextInt(0x5F)); // mostly ASCII
                case 2 -> { // UTF-8-ish: leads, continuations, line breaks
                    int[] pool = {0x0A, 0x0D, 0x20, 0x41, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x00};
                    body[i] = (byte) pool[rnd.nextInt(pool.length)];
                }
                default -> body[i] = (byte) SPECIAL.charAt(rnd.nextInt(SPECIAL.length()));
            }
        }
        byte[] all = new byte[prefix.length + n];
        System.arraycopy(prefix, 0, all, 0, prefix.length);
        System.arraycopy(body, 0, all, prefix.length, n);
        return all;
    }

    static void checkInvariants(SourceText st, byte[] bytes) {
        String text = st.text();
        assertNotNull(text);
        assertNotNull(st.encoding());
        String norm = st.normalized();
        assertFalse(norm.indexOf('\r') >= 0);
        assertEquals(SourceText.normalize(text), norm);
        LineIndex li = st.lines();
        long lfs = norm.chars().filter(c -> c == '\n').count();
        assertEquals(lfs + 1, li.lineCount());
        int total = norm.codePointCount(0, norm.length());
        assertEquals(li.lineCount(), li.lineOfCodePoint(total));
        StringBuilder rebuilt = new StringBuilder();
        for (int l = 1; l <= li.lineCount(); l++) {
            if (l > 1) {
                rebuilt.append('\n');
            }
            String line = li.lineText(l);
            rebuilt.append(line);
            int cps = line.codePointCount(0, line.length());
            assertEquals(utf8Len(line), li.utf8Column(l, cps));
            assertEquals(line.length(), li.utf16Column(l, cps));
        }
        assertEquals(norm, rebuilt.toString());
        for (DecodeProblem p : st.problems()) {
            assertTrue(p.line() >= 1 && p.line() <= li.lineCount(), p.toString());
            String line = li.lineText(p.line());
            assertTrue(p.column() >= 1 && p.column() <= line.codePointCount(0, line.length()) + 1, p + " on " + line);
            assertNotNull(p.message());
        }
        if (bytes != null && allPrintableAscii(bytes)) {
            assertEquals(0, st.problems().size(), st.problems().toString());
        }
    }

    /** UTF-8 length as the index counts it (lone surrogates 3 bytes). */
    static int utf8Len(String s) {
        return s.codePoints().map(LineIndexTest::u8).sum();
    }

    static boolean allPrintableAscii(byte[] b) {
        for (byte x : b) {
            if (x < 0x20 && x != '\n' && x != '\r' && x != '\t' || x == 0x7F || x < 0) {
                return false;
            }
        }
        // only without a declaration that could pick an odd codec
        String s = new String(b, StandardCharsets.ISO_8859_1);
        return !s.contains("coding");
    }
}
