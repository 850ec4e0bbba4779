package dev.graphmend.ir.source;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The text of one Python source file, decoded as CPython 3.13 decodes the bytes it is given
 * ({@code compile(bytes)}, {@code ast.parse(bytes)}): UTF-8 BOM, PEP 263 coding declaration on line 1
 * or 2, CPython's codec names and aliases. See {@link SourceDecoder} for the details and the one
 * deliberate difference.
 *
 * <p>Immutable and thread-safe.
 */
public final class SourceText {
    /** The problem of a NUL byte, in CPython's words. */
    public static final String NULL_BYTES = SourceDecoder.NULL_BYTES;

    private final String text;
    private final String normalized;
    private final String encoding;
    private final List<DecodeProblem> problems;
    private final List<DecodeProblem> invalidUtf8;
    private volatile LineIndex lines;

    private SourceText(String text, String encoding, List<DecodeProblem> problems) {
        this(text, encoding, problems, List.of());
    }

    private SourceText(String text, String encoding, List<DecodeProblem> problems, List<DecodeProblem> invalidUtf8) {
        this.text = text;
        this.normalized = normalize(text);
        this.encoding = encoding;
        this.problems = problems;
        this.invalidUtf8 = invalidUtf8;
    }

    /**
     * Decodes a file's bytes. Never throws, whatever the bytes: undecodable bytes become U+FFFD, an
     * unknown or unusable declared encoding falls back to UTF-8, and each such thing (and a NUL byte)
     * is a {@link DecodeProblem}.
     */
    public static SourceText decode(byte[] bytes) {
        byte[] b = bytes == null ? new byte[0] : bytes;
        try {
            SourceDecoder.Decoded d = SourceDecoder.decode(b);
            return new SourceText(d.text(), d.encoding(), d.problems(), d.invalidUtf8());
        } catch (RuntimeException e) {
            // Not expected (the decoder is fuzzed), but this method promises never to throw.
            String text = new String(b, StandardCharsets.UTF_8);
            if (text.startsWith("\uFEFF")) {
                text = text.substring(1);
            }
            return new SourceText(text, "utf-8",
                    List.of(new DecodeProblem(1, 1, "internal error while decoding: " + e)));
        }
    }

    /**
     * Text that is already decoded (from an editor). A leading U+FEFF is dropped; a coding declaration
     * is ignored (as CPython ignores it in a {@code str}). NUL characters and lone surrogates, which
     * CPython rejects, are problems.
     */
    public static SourceText of(String text) {
        String t = text == null ? "" : text;
        if (t.startsWith("\uFEFF")) {
            t = t.substring(1);
        }
        return new SourceText(t, "utf-8", SourceDecoder.checkText(t));
    }

    /**
     * {@link #of}{@code (after)}, where {@code after} is {@code beforeText} (of which {@code
     * before} is the source) with the characters from {@code start} to {@code end} replaced by
     * {@code inserted}, as an editor's change makes it: the line index, when {@code before} has
     * built one, is carried over the edit instead of being built from the whole text on first use
     * ({@link LineIndex#edited}). Only when neither text has a BOM or a CR, which would make the
     * index's text differ from the editor's.
     */
    public static SourceText edited(SourceText before, String beforeText, int start, int end, String inserted, String after) {
        SourceText s = of(after);
        LineIndex old = before.lines;
        if (old != null && before.text == beforeText && before.normalized == before.text && s.text == after && s.normalized == s.text) {
            s.lines = LineIndex.edited(old, start, end, inserted, after);
        }
        return s;
    }

    /** The decoded text, BOM removed, line endings as in the file. */
    public String text() {
        return text;
    }

    /** {@link #text()} with CRLF and lone CR turned into LF: what the lexer reads. */
    public String normalized() {
        return normalized;
    }

    /**
     * The codec used, by CPython's canonical name ({@code codecs.lookup(name).name}): {@code utf-8}
     * (also for a BOM, no declaration, or a declaration that could not be used), {@code iso8859-1}
     * (latin-1), {@code cp1252}, {@code ascii}, {@code euc_jp}, {@code shift_jis}, ...
     */
    public String encoding() {
        return encoding;
    }

    /**
     * What keeps CPython from decoding this source, sorted by position; empty when it decodes fine.
     * Invalid bytes are reported once per line (the first on each line, at most
     * {@value SourceDecoder#MAX_DECODE_ERROR_LINES} lines). With the default UTF-8, CPython's
     * {@code compile(bytes)} tolerates invalid bytes inside comments (only {@code python file.py}
     * rejects them), so a caller matching {@code ast.parse} exactly may drop problems inside comments.
     */
    public List<DecodeProblem> problems() {
        return problems;
    }

    /**
     * With UTF-8 (the default, or declared): the first invalid byte of every line that has one, as
     * the problem it is (also past the lines {@link #problems()} reports); empty for other encodings.
     * Which of them CPython's {@code compile} reports depends on the tokens they fall in (see
     * {@code dev.graphmend.ir.parse.CompileProblems}).
     */
    public List<DecodeProblem> invalidUtf8() {
        return invalidUtf8;
    }

    /** The line index over {@link #normalized()}, built on first use. */
    public LineIndex lines() {
        LineIndex l = lines;
        if (l == null) {
            // A race builds two equal indexes; either may win, both are immutable.
            l = new LineIndex(normalized);
            lines = l;
        }
        return l;
    }

    @Override
    public String toString() {
        return "SourceText[" + encoding + ", " + text.length() + " chars, " + problems.size() + " problems]";
    }

    /** CRLF and lone CR to LF; the same string when there is no CR. */
    static String normalize(String s) {
        int cr = s.indexOf('\r');
        if (cr < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length());
        sb.append(s, 0, cr);
        int n = s.length();
        for (int i = cr; i < n; i++) {
            char c = s.charAt(i);
            if (c == '\r') {
                sb.append('\n');
                if (i + 1 < n && s.charAt(i + 1) == '\n') {
                    i++;
                }
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
