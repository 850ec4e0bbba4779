package dev.graphmend.ir.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Decoding as CPython 3.13's {@code ast.parse(bytes)} does. Expected outcomes were checked with
 * {@code /root/.pyenv/versions/3.13.0/bin/python3 -c 'import ast; ast.parse(b"...")'}.
 */
class SourceTextTest {
    /** Bytes from a string whose chars are byte values ("\u00e9" is the byte 0xE9). */
    static byte[] b(String bytes) {
        return bytes.getBytes(StandardCharsets.ISO_8859_1);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static final String BOM = "\u00ef\u00bb\u00bf";

    static void assertNoProblems(SourceText st) {
        assertEquals(List.of(), st.problems(), st.text());
    }

    static DecodeProblem single(SourceText st) {
        assertEquals(1, st.problems().size(), () -> st.problems().toString());
        return st.problems().get(0);
    }

    // ---- basics ----

    @Test
    void emptyInput() {
        for (SourceText st : new SourceText[] {SourceText.decode(new byte[0]), SourceText.of(""), SourceText.decode(null), SourceText.of(null)}) {
            assertEquals("", st.text());
            assertEquals("", st.normalized());
            assertEquals("utf-8", st.encoding());
            assertNoProblems(st);
            assertEquals(1, st.lines().lineCount());
            assertEquals("", st.lines().lineText(1));
        }
    }

    @Test
    void plainUtf8() {
        SourceText st = SourceText.decode(utf8("s = 'é中\uD835\uDD18'\nprint(s)\n"));
        assertEquals("s = 'é中\uD835\uDD18'\nprint(s)\n", st.text());
        assertEquals("utf-8", st.encoding());
        assertNoProblems(st);
        assertEquals(3, st.lines().lineCount());
        assertEquals(5 + 2 + 3 + 4 + 1, st.lines().utf8Column(1, 9));
    }

    @Test
    void problemsListIsImmutable() {
        SourceText st = SourceText.decode(b("x = '\u00ff'\n"));
        assertThrows(UnsupportedOperationException.class, () -> st.problems().clear());
    }

    // ---- BOM ----

    @Test
    void bomIsDroppedAndMeansUtf8() {
        SourceText st = SourceText.decode(b(BOM + "x = 1\n"));
        assertEquals("x = 1\n", st.text());
        assertEquals("utf-8", st.encoding());
        assertNoProblems(st);
    }

    @Test
    void onlyOneBomIsDropped() {
        // CPython: "invalid non-printable character U+FEFF" (a lexer error, not a decoding one)
        SourceText st = SourceText.decode(b(BOM + BOM + "x = 1\n"));
        assertEquals("\uFEFFx = 1\n", st.text());
        assertNoProblems(st);
        assertEquals("\uFEFFx", SourceText.of("\uFEFF\uFEFFx").text());
    }

    @Test
    void bomWithUtf8CookieVariantsIsFine() {
        for (String cookie : new String[] {"utf-8", "UTF-8", "utf_8", "utf-8-unix", "utf-8-sig", "Utf-8-Whatever"}) {
            SourceText st = SourceText.decode(b(BOM + "# -*- coding: " + cookie + " -*-\nx = 1\n"));
            assertNoProblems(st);
            assertEquals("utf-8", st.encoding());
            assertTrue(st.text().startsWith("# -*-"));
        }
    }

    @Test
    void bomWithOtherCookieIsAProblem() {
        // CPython: SyntaxError: encoding problem: utf8 with BOM ("utf8" is not normalised by get_normal_name)
        DecodeProblem p = single(SourceText.decode(b(BOM + "# coding: utf8\nx = 1\n")));
        assertEquals(new DecodeProblem(1, 11, "encoding problem: utf8 with BOM"), p);
        // latin-1 is reported under its normal name
        SourceText st = SourceText.decode(b(BOM + "#!/usr/bin/python\n# vim: set fileencoding=latin-1 :\nx = '\u00c3\u00a9'\n"));
        assertEquals(new DecodeProblem(2, 25, "encoding problem: iso-8859-1 with BOM"), single(st));
        assertEquals("utf-8", st.encoding());
        assertTrue(st.text().endsWith("x = 'é'\n"), st.text()); // decoded as the BOM says
    }

    @Test
    void partialBomIsInvalidUtf8() {
        // CPython: 'utf-8' codec can't decode bytes in position 0-1: invalid continuation byte
        SourceText st = SourceText.decode(b("\u00ef\u00bbx=1\n"));
        DecodeProblem p = single(st);
        assertEquals(1, p.line());
        assertEquals(1, p.column());
        assertTrue(p.message().contains("bytes in position 0-1: invalid continuation byte"), p.message());
        assertEquals("\uFFFDx=1\n", st.text());
    }

    // ---- coding declarations ----

    @Test
    void latin1CookieOnLine1() {
        SourceText st = SourceText.decode(b("# -*- coding: latin-1 -*-\nx = '\u00e9'; y = 1\n"));
        assertNoProblems(st);
        assertEquals("iso8859-1", st.encoding());
        assertEquals("x = 'é'; y = 1", st.lines().lineText(2));
        // CPython: Name y at col_offset 10 (é is 2 bytes of UTF-8 after decoding)
        assertEquals(10, st.lines().utf8Column(2, 9));
        assertEquals(9, st.lines().cpColumnFromUtf8(2, 10));
        assertEquals(9, st.lines().utf16ColumnFromUtf8(2, 10));
    }

    @Test
    void cookieOnLine2AfterShebangBlankOrComment() {
        for (String line1 : new String[] {"#!/usr/bin/env python", "", "   ", "\t# comment", "\f", "#"}) {
            SourceText st = SourceText.decode(b(line1 + "\n# coding: latin-1\nx = '\u00e9'\n"));
            assertNoProblems(st);
            assertEquals("iso8859-1", st.encoding(), line1);
            assertEquals("x = 'é'", st.lines().lineText(3));
        }
    }

    @Test
    void cookieOnLine2IgnoredAfterCode() {
        // CPython: (unicode error) 'utf-8' codec can't decode byte 0xe9 ...
        for (String line1 : new String[] {"x = 1", "\\", "  x", "\u000b"}) {
            SourceText st = SourceText.decode(b(line1 + "\n# coding: latin-1\nx = '\u00e9'\n"));
            assertEquals("utf-8", st.encoding(), line1);
            DecodeProblem p = single(st);
            assertEquals(3, p.line());
            assertEquals(6, p.column());
        }
    }

    @Test
    void cookieOnLine3IsIgnored() {
        SourceText st = SourceText.decode(b("#\n#\n# coding: latin-1\nx = '\u00e9'\n"));
        assertEquals("utf-8", st.encoding());
        assertEquals(4, single(st).line());
    }

    @Test
    void cookieSpellings() {
        String[][] ok = {
            {"# -*- coding: latin-1 -*-", "iso8859-1"},
            {"# vim: set fileencoding=latin-1 :", "iso8859-1"},
            {"#coding:latin-1", "iso8859-1"},
            {"# coding:   \t latin-1", "iso8859-1"},
            {"# coding=cp1252", "cp1252"},
            {"# codingcoding: latin-1", "iso8859-1"},
            {"# coding: latin-1 # coding: foo", "iso8859-1"},
            {"#\u00e9 coding: latin-1", "iso8859-1"},
            {"# coding: Latin_1", "iso8859-1"},
            {"# coding: ISO-LATIN-1-X", "iso8859-1"},
            {"# coding: latin-1-unix", "iso8859-1"},
            {"# coding: latin1", "iso8859-1"},
            {"# coding: l1", "iso8859-1"},
            {"# coding: 8859", "iso8859-1"},
            {"# coding: iso_8859_1", "iso8859-1"},
            {"# coding: windows-1252", "cp1252"},
            {"# coding: ISO-8859-15", "iso8859-15"},
            {"# coding: latin9", "iso8859-15"},
            {"  # coding: koi8-r", "koi8-r"},
        };
        for (String[] c : ok) {
            SourceText st = SourceText.decode(b(c[0] + "\nx = '\u00e9'\n"));
            assertNoProblems(st);
            assertEquals(c[1], st.encoding(), c[0]);
        }
        // Not declarations: the bytes stay UTF-8, so the latin-1 é is invalid.
        for (String line1 : new String[] {"# coding : latin-1", "# CODING: latin-1", "# coding:: latin-1", "x = 1 # coding: latin-1",
                                          "# coding:", "# coding: ", "# encoding latin-1"}) {
            SourceText st = SourceText.decode(b(line1 + "\nx = '\u00e9'\n"));
            assertEquals("utf-8", st.encoding(), line1);
            assertEquals(2, single(st).line(), line1);
        }
    }

    @Test
    void utf8CookieSpellings() {
        for (String name : new String[] {"utf-8", "UTF-8", "utf_8", "utf-8-unix", "utf-8-", "utf-8_", "UTF-8-SIG", "utf8", "u8",
                                         "utf", "cp65001", "utf--8"}) {
            SourceText st = SourceText.decode(b("# -*- coding: " + name + " -*-\nx = '\u00c3\u00a9'\n"));
            assertNoProblems(st);
            assertEquals("utf-8", st.encoding(), name);
            assertEquals("x = 'é'", st.lines().lineText(2));
        }
    }

    @Test
    void cookieWithoutTrailingNewlineStillCounts() {
        // CPython appends a newline to exec input before looking for the declaration.
        SourceText st = SourceText.decode(b("#!x\n# coding: latin-1\nx = '\u00e9'"));
        assertNoProblems(st);
        assertEquals("iso8859-1", st.encoding());
        st = SourceText.decode(b("# coding: latin-1 \u00e9"));
        assertNoProblems(st);
        assertEquals("# coding: latin-1 é", st.text());
    }

    @Test
    void crAndCrlfEndCookieLines() {
        for (String eol : new String[] {"\r", "\r\n", "\n"}) {
            SourceText st = SourceText.decode(b("#!x" + eol + "# coding: latin-1" + eol + "x = '\u00e9'" + eol));
            assertNoProblems(st);
            assertEquals("iso8859-1", st.encoding());
            assertEquals("#!x\n# coding: latin-1\nx = 'é'\n", st.normalized());
            assertEquals("#!x" + eol + "# coding: latin-1" + eol + "x = 'é'" + eol, st.text());
        }
        // "\r\r" is two line breaks, so the declaration is on line 3
        SourceText st = SourceText.decode(b("# a\r\r# coding: latin-1\nx = '\u00e9'\n"));
        assertEquals("utf-8", st.encoding());
        assertEquals(4, single(st).line());
    }

    @Test
    void unknownEncoding() {
        SourceText st = SourceText.decode(b("# -*- coding: uft-8 -*-\nx = '\u00c3\u00a9'\n"));
        assertEquals(new DecodeProblem(1, 15, "unknown encoding: uft-8"), single(st));
        assertEquals("utf-8", st.encoding());
        assertEquals("x = 'é'", st.lines().lineText(2)); // decoded as UTF-8 anyway
        for (String name : new String[] {"foobar", "cp-1252", "utf-8xyz", "utf-8.x", ".utf-8", "mbcs", "csHPRoman8"}) {
            SourceText s2 = SourceText.decode(b("# coding: " + name + "\nx = 1\n"));
            assertEquals("unknown encoding: " + name, single(s2).message());
        }
    }

    @Test
    void unknownEncodingAlsoReportsInvalidUtf8() {
        SourceText st = SourceText.decode(b("# coding: foobar\nx = '\u00e9'\n"));
        assertEquals(2, st.problems().size(), st.problems().toString());
        assertEquals(1, st.problems().get(0).line());
        assertEquals(2, st.problems().get(1).line());
    }

    @Test
    void nonTextAndUndefinedAndUnsupportedEncodings() {
        assertEquals("'rot13' is not a text encoding; use codecs.decode() to handle arbitrary codecs",
                single(SourceText.decode(b("# coding: rot13\nx = 1\n"))).message());
        assertEquals("'hex' is not a text encoding; use codecs.decode() to handle arbitrary codecs",
                single(SourceText.decode(b("# coding: hex\nx = 1\n"))).message());
        assertEquals("undefined encoding", single(SourceText.decode(b("# coding: undefined\nx = 1\n"))).message());
        SourceText st = SourceText.decode(b("# coding: utf-7\nx = 1\n"));
        assertTrue(single(st).message().contains("not supported"), st.problems().toString());
        assertEquals("x = 1", st.lines().lineText(2));
    }

    @Test
    void asciiCookieRejectsNonAscii() {
        // CPython: 'ascii' codec can't decode byte 0xe9 in position 18: ordinal not in range(128)
        SourceText st = SourceText.decode(b("# coding: ascii\n# \u00e9\n"));
        DecodeProblem p = single(st);
        assertEquals(2, p.line());
        assertEquals(3, p.column());
        assertEquals("'ascii' codec can't decode byte 0xe9 in position 18: ordinal not in range(128)", p.message());
        assertEquals("# \uFFFD", st.lines().lineText(2));
    }

    @Test
    void cp1252() {
        SourceText st = SourceText.decode(b("# coding=cp1252\nx = '\u0080\u0093'\n"));
        assertNoProblems(st);
        assertEquals("x = '€\u201C'", st.lines().lineText(2));
        // 0x81 is undefined in cp1252 (CPython: character maps to <undefined>)
        st = SourceText.decode(b("# coding=cp1252\nx = '\u0081'\n"));
        assertEquals(new DecodeProblem(2, 6, "'cp1252' codec can't decode byte 0x81 in position 21: character maps to <undefined>"),
                single(st));
    }

    @Test
    void eastAsianEncodings() {
        SourceText st = SourceText.decode(b("# coding: euc-jp\nx = '\u00a4\u00a2'; y = 1\n"));
        assertNoProblems(st);
        assertEquals("euc_jp", st.encoding());
        assertEquals("x = 'あ'; y = 1", st.lines().lineText(2));
        assertEquals(11, st.lines().utf8Column(2, 9)); // y; あ is 3 UTF-8 bytes
        st = SourceText.decode(b("# coding: shift_jis\nx = '\u0082\u00a0'\n"));
        assertNoProblems(st);
        assertEquals("shift_jis", st.encoding());
        assertEquals("x = 'あ'", st.lines().lineText(2));
        st = SourceText.decode(b("# coding: sjis\nx = '\u0082'\n")); // lead byte, then a quote
        assertFalse(st.problems().isEmpty());
        st = SourceText.decode(utf8("# coding: gbk\nx = 1\n"));
        assertEquals("gbk", st.encoding());
        assertNoProblems(st);
    }

    @Test
    void utf16CookieDoesNotThrow() {
        // CPython: 'utf-16-le' codec can't decode byte 0x0a in position 16: truncated data
        SourceText st = SourceText.decode(b("# coding: utf-16\n"));
        assertEquals("utf-16", st.encoding());
        assertFalse(st.problems().isEmpty());
        st = SourceText.decode(b("# coding: utf-32\nx=1\n"));
        assertFalse(st.problems().isEmpty());
    }

    // ---- invalid bytes ----

    @Test
    void invalidUtf8InAStringLiteral() {
        // CPython: (unicode error) 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte
        SourceText st = SourceText.decode(b("x = 1\ny = '\u00ff'\n"));
        DecodeProblem p = single(st);
        assertEquals(2, p.line());
        assertEquals(6, p.column());
        assertEquals("(unicode error) 'utf-8' codec can't decode byte 0xff in position 11: invalid start byte", p.message());
        assertEquals("x = 1\ny = '\uFFFD'\n", st.text());
        assertEquals("utf-8", st.encoding());
    }

    @Test
    void invalidUtf8Reasons() {
        assertTrue(single(SourceText.decode(b("\u00e2\u0082"))).message()
                .endsWith("can't decode bytes in position 0-1: unexpected end of data"));
        assertTrue(single(SourceText.decode(b("a\u00e9'"))).message()
                .endsWith("can't decode byte 0xe9 in position 1: invalid continuation byte"));
        assertTrue(single(SourceText.decode(b("a\u00c0\u00af"))).message().endsWith("invalid start byte"));
        assertTrue(single(SourceText.decode(b("a\u00ed\u00a0\u0080"))).message()
                .endsWith("can't decode byte 0xed in position 1: invalid continuation byte"));
        assertTrue(single(SourceText.decode(b("a\u00f0\u009f\u0098x"))).message()
                .endsWith("can't decode bytes in position 1-3: invalid continuation byte"));
    }

    @Test
    void replacementGranularityMatchesCPython() {
        // bytes.decode('utf-8', 'replace') of CPython 3.13
        String[][] cases = {
            {"\u00f0\u0080\u0080", "\uFFFD\uFFFD\uFFFD"},
            {"\u00e0\u0080", "\uFFFD\uFFFD"},
            {"\u00ed\u00a0\u0080", "\uFFFD\uFFFD\uFFFD"},
            {"\u00f4\u0090\u0080\u0080", "\uFFFD\uFFFD\uFFFD\uFFFD"},
            {"\u00f0\u009f\u0098", "\uFFFD"},
            {"\u00f0\u009f\u0098x", "\uFFFDx"},
            {"\u00c0\u00af", "\uFFFD\uFFFD"},
            {"\u00e2\u0082\u00ac\u00e2\u0082", "€\uFFFD"},
            {"\u00ff\u00fe", "\uFFFD\uFFFD"},
            {"\u00f0\u009f\u0098\u0080", "😀"},
        };
        for (String[] c : cases) {
            assertEquals("x" + c[1], SourceText.decode(b("x" + c[0])).text(), c[0]);
        }
    }

    @Test
    void oneProblemPerLineWithInvalidBytes() {
        SourceText st = SourceText.decode(b("a = '\u00ff\u00fe' # \u00ff\nb = 1\nc = '\u00e9'\r\nd = '\u00e9'\re = '\u00ff'"));
        List<DecodeProblem> ps = st.problems();
        assertEquals(4, ps.size(), ps.toString());
        assertEquals(List.of(1, 3, 4, 5), ps.stream().map(DecodeProblem::line).toList());
        assertEquals(List.of(6, 6, 6, 6), ps.stream().map(DecodeProblem::column).toList());
    }

    @Test
    void manyBadLinesAreCapped() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 150; i++) {
            sb.append("x = '\u00ff'\n");
        }
        List<DecodeProblem> ps = SourceText.decode(b(sb.toString())).problems();
        assertEquals(SourceDecoder.MAX_DECODE_ERROR_LINES + 1, ps.size());
        assertEquals(101, ps.get(100).line());
        assertEquals("undecodable bytes on 50 more lines not reported", ps.get(100).message());
    }

    @Test
    void columnsOfProblemsCountCodePoints() {
        SourceText st = SourceText.decode(concat(utf8("s = '\uD835\uDD18é中"), b("\u00ff'\n")));
        DecodeProblem p = single(st);
        assertEquals(1, p.line());
        assertEquals(9, p.column()); // s,' ',=,' ',',U,é,中 then the bad byte
    }

    @Test
    void nulBytes() {
        // CPython: SyntaxError: source code string cannot contain null bytes
        SourceText st = SourceText.decode(b("x = 1\ny\u0000 = 2\n"));
        assertEquals(new DecodeProblem(2, 2, SourceDecoder.NULL_BYTES), single(st));
        assertEquals("x = 1\ny\u0000 = 2\n", st.text());
        st = SourceText.decode(b("# coding: latin-1\u0000\nx = '\u00e9'\n"));
        assertEquals(SourceDecoder.NULL_BYTES, single(st).message());
        assertEquals(SourceDecoder.NULL_BYTES, single(SourceText.of("a\u0000")).message());
    }

    @Test
    void problemsAreSortedByPosition() {
        SourceText st = SourceText.decode(b("# coding: foobar\n\u0000\nx = '\u00ff'\n"));
        List<DecodeProblem> ps = st.problems();
        assertEquals(3, ps.size(), ps.toString());
        assertEquals(List.of(1, 2, 3), ps.stream().map(DecodeProblem::line).toList());
    }

    // ---- line endings ----

    @Test
    void crlfAndLoneCr() {
        SourceText st = SourceText.decode(utf8("a = 1\r\nb = 2\rc = 'é'\r\n\r\rd"));
        assertEquals("a = 1\r\nb = 2\rc = 'é'\r\n\r\rd", st.text());
        assertEquals("a = 1\nb = 2\nc = 'é'\n\n\nd", st.normalized());
        assertNoProblems(st);
        LineIndex li = st.lines();
        assertEquals(6, li.lineCount());
        assertEquals("b = 2", li.lineText(2));
        assertEquals("c = 'é'", li.lineText(3));
        assertEquals("d", li.lineText(6));
        assertEquals(8, li.utf8Column(3, 7));
        // LF, CRLF and CR files have the same lines
        SourceText lf = SourceText.of("x\ny\n");
        SourceText crlf = SourceText.of("x\r\ny\r\n");
        SourceText cr = SourceText.of("x\ry\r");
        assertEquals(lf.normalized(), crlf.normalized());
        assertEquals(lf.normalized(), cr.normalized());
        assertEquals(3, cr.lines().lineCount());
    }

    @Test
    void normalizedIsTheSameStringWithoutCr() {
        SourceText st = SourceText.of("a\nb\n");
        assertTrue(st.text() == st.normalized());
    }

    // ---- of(String) ----

    @Test
    void ofDropsBomAndIgnoresCookies() {
        SourceText st = SourceText.of("\uFEFF# coding: latin-1\nx = 'é'\n");
        assertEquals("# coding: latin-1\nx = 'é'\n", st.text());
        assertEquals("utf-8", st.encoding());
        assertNoProblems(st);
        assertNoProblems(SourceText.of("# coding: foobar\n"));
    }

    @Test
    void ofReportsLoneSurrogates() {
        SourceText st = SourceText.of("ok = '\uD835\uDD18'\nx = '\uD800'\n");
        DecodeProblem p = single(st);
        assertEquals(2, p.line());
        assertEquals(6, p.column());
        assertTrue(p.message().contains("surrogates not allowed"), p.message());
    }

    @Test
    void bomOnlyAndShortInputs() {
        assertNoProblems(SourceText.decode(b(BOM)));
        assertEquals("", SourceText.decode(b(BOM)).text());
        assertEquals("#", SourceText.decode(b("#")).text());
        assertEquals("\n", SourceText.decode(b("\n")).text());
        assertEquals(2, SourceText.decode(b("\r")).lines().lineCount());
        SourceText st = SourceText.decode(b("# coding: latin-1\n"));
        assertNoProblems(st);
        assertEquals("iso8859-1", st.encoding());
    }

    @Test
    void ebcdicTableDecodes() {
        // cp037 is EBCDIC: 0xC1 is 'A', 0x15 is NEL (U+0085, where the JDK's IBM037 says LF)
        SourceText st = SourceText.decode(b("# coding: cp037\n\u00c1\u0015"));
        assertEquals("cp037", st.encoding());
        assertTrue(st.text().endsWith("A\u0085"), st.text());
    }

    @Test
    void bigFilesDecodeQuickly() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 100_000; i++) {
            sb.append("def f").append(i).append("(x):  # é 中 \uD835\uDD18\r\n    return x + ").append(i).append("\r\n");
        }
        byte[] bytes = utf8(sb.toString());
        long t0 = System.nanoTime();
        SourceText st = SourceText.decode(bytes);
        int lines = st.lines().lineCount();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertNoProblems(st);
        assertEquals(200_001, lines);
        assertTrue(ms < 5_000, bytes.length + " bytes took " + ms + " ms");
    }

    // ---- helpers of the decoder ----

    @Test
    void getNormalName() {
        assertEquals("utf-8", SourceDecoder.getNormalName("UTF_8"));
        assertEquals("utf-8", SourceDecoder.getNormalName("utf-8-unix"));
        assertEquals("utf8", SourceDecoder.getNormalName("utf8"));
        assertEquals("iso-8859-1", SourceDecoder.getNormalName("Latin-1"));
        assertEquals("iso-8859-1", SourceDecoder.getNormalName("iso_latin_1_foo_bar_baz"));
        assertEquals("latin1", SourceDecoder.getNormalName("latin1"));
        assertEquals("utf-8xyz", SourceDecoder.getNormalName("utf-8xyz"));
    }

    @Test
    void codecLookupFollowsCPython() {
        assertEquals("utf-8", PythonCodecs.lookup("utf8").name());
        assertEquals("utf-8", PythonCodecs.lookup("UTF--8").name());
        assertEquals("iso8859-1", PythonCodecs.lookup("L1").name());
        assertEquals("iso8859-1", PythonCodecs.lookup("iso-8859-1").name());
        assertEquals("cp1252", PythonCodecs.lookup("1252").name());
        assertEquals("shift_jis", PythonCodecs.lookup("x-mac-japanese").name());
        assertEquals("ascii", PythonCodecs.lookup("ANSI_X3.4-1968").name());
        assertEquals(PythonCodecs.Kind.NOT_TEXT, PythonCodecs.lookup("rot13").kind());
        assertNull(PythonCodecs.lookup("csHPRoman8")); // an alias CPython itself cannot find (upper case)
        assertNull(PythonCodecs.lookup("aliases"));
        assertNull(PythonCodecs.lookup("utf8-sig"));
        assertNull(PythonCodecs.lookup(""));
        assertNotNull(PythonCodecs.lookup("cp037"));
        assertEquals(70, PythonCodecs.tableCodecNames().size());
    }

    static byte[] concat(byte[] a, byte[] c) {
        byte[] r = new byte[a.length + c.length];
        System.arraycopy(a, 0, r, 0, a.length);
        System.arraycopy(c, 0, r, a.length, c.length);
        return r;
    }
}
