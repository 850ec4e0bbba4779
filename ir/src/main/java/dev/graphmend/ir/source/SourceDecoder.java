package dev.graphmend.ir.source;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Bytes to text the way CPython 3.13's tokenizer does it for {@code compile(bytes)}
 * ({@code Parser/tokenizer/string_tokenizer.c: decode_str} and {@code helpers.c}), without ever
 * throwing: where CPython would fail, the text is decoded anyway (invalid bytes become U+FFFD, an
 * unusable encoding falls back to UTF-8) and the failure is recorded as a {@link DecodeProblem}.
 *
 * <p>The steps, as in CPython:
 * <ol>
 *   <li>A UTF-8 BOM (EF BB BF) is skipped and fixes the encoding to UTF-8.</li>
 *   <li>A coding declaration is looked for on line 1, and on line 2 when line 1 is blank or only a
 *       comment; lines end at CR, LF or CRLF. The declaration is a comment line
 *       {@code [ \t\f]*#...coding[:=][ \t]*NAME} with NAME made of ASCII letters, digits, '-', '_' and
 *       '.'; the first such match on the line counts.</li>
 *   <li>The name is normalised as {@code get_normal_name} does (first 12 characters lower-cased,
 *       '_' to '-'; {@code utf-8} and {@code utf-8-*} become {@code utf-8}, latin-1 spellings become
 *       {@code iso-8859-1}). With a BOM, anything but {@code utf-8} is "encoding problem: X with BOM".</li>
 *   <li>{@code utf-8} (normalised) or no declaration: the bytes are UTF-8. Any other name is looked up
 *       in CPython's codec registry ({@link PythonCodecs}) and the whole file is decoded with it.</li>
 * </ol>
 * One difference is deliberate: with the default UTF-8, CPython's {@code compile(bytes)} (so also
 * {@code ast.parse} and {@code import}) only notices invalid UTF-8 inside tokens it decodes (string
 * literals, names), so a bad byte in a comment passes there, while {@code python file.py} rejects it
 * ("Non-UTF-8 code starting with ..."). This decoder reports every line with an invalid byte; a
 * caller that wants {@code compile}'s leniency can ignore problems that fall inside comments.
 */
final class SourceDecoder {
    private SourceDecoder() {}

    /** At most this many lines with undecodable bytes are reported (one problem each). */
    static final int MAX_DECODE_ERROR_LINES = 100;

    static final String NULL_BYTES = "source code cannot contain null bytes";

    private static final char REPLACEMENT = '\uFFFD';

    /** The result handed to {@link SourceText}. */
    /**
     * {@code invalidUtf8}: with UTF-8 (the default or declared), the first invalid byte of every line
     * that has one, however many (the problems stop at {@link #MAX_DECODE_ERROR_LINES}); else empty.
     */
    record Decoded(String text, String encoding, List<DecodeProblem> problems, List<DecodeProblem> invalidUtf8) {}

    static Decoded decode(byte[] bytes) {
        int n = bytes.length;
        int start = 0;
        boolean bom = n >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB && (bytes[2] & 0xFF) == 0xBF;
        if (bom) {
            start = 3;
        }

        // Lines 1 and 2 of the raw bytes (after the BOM); CR, LF and CRLF end a line.
        int end1 = lineEnd(bytes, start);
        int start2 = end1 < n ? nextLineStart(bytes, end1) : -1;
        int end2 = start2 >= 0 ? lineEnd(bytes, start2) : -1;

        Cookie cookie = null;
        boolean line1 = start < n; // CPython looks at no line in an empty file
        if (line1) {
            cookie = codingSpec(bytes, start, end1, 1);
            if (cookie == null && start2 >= 0 && blankOrComment(bytes, start, end1)) {
                cookie = codingSpec(bytes, start2, end2, 2);
            }
        }

        PendingProblem cookieProblem = null;
        PythonCodecs.Codec codec = PythonCodecs.UTF_8;
        boolean strict = false; // decoded as a whole by a codec (vs. the lenient default UTF-8 path)
        if (cookie != null) {
            String cs = getNormalName(cookie.name);
            if (bom) {
                if (!cs.equals("utf-8")) {
                    cookieProblem = new PendingProblem(cookie, "encoding problem: " + cs + " with BOM");
                }
            } else if (!cs.equals("utf-8")) {
                PythonCodecs.Codec found = PythonCodecs.lookup(cs);
                if (found == null) {
                    cookieProblem = new PendingProblem(cookie, "unknown encoding: " + cs);
                } else {
                    switch (found.kind()) {
                        case NOT_TEXT:
                            cookieProblem = new PendingProblem(cookie, "'" + cs
                                    + "' is not a text encoding; use codecs.decode() to handle arbitrary codecs");
                            break;
                        case UNDEFINED:
                            cookieProblem = new PendingProblem(cookie, "undefined encoding");
                            break;
                        case UNSUPPORTED:
                            cookieProblem = new PendingProblem(cookie, "encoding '" + cs + "' (" + found.name()
                                    + ") is valid in CPython but not supported by GraphMend; decoded as utf-8");
                            break;
                        default:
                            codec = found;
                            strict = true;
                            break;
                    }
                }
            }
        }

        Out out = new Out(n - start + 16);
        ErrorSink sink = new ErrorSink(codec.name(), strict ? "" : "(unicode error) ");
        switch (codec.kind()) {
            case UTF8:
                decodeUtf8(bytes, start, n, out, sink);
                break;
            case ASCII:
                decodeAscii(bytes, start, n, out, sink);
                break;
            case TABLE:
                decodeTable(bytes, start, n, codec.table(), out, sink);
                break;
            case JAVA:
                decodeJava(bytes, start, n, codec.javaCharset(), codec.name(), out, sink);
                break;
            case UTF16_BOM:
                decodeWithBom(bytes, start, n, 2, codec.javaCharset(), out, sink);
                break;
            case UTF32_BOM:
                decodeWithBom(bytes, start, n, 4, codec.javaCharset(), out, sink);
                break;
            default: // not reached: the other kinds fell back to UTF-8 above
                decodeUtf8(bytes, start, n, out, sink);
                break;
        }
        String text = out.toString();

        // Problems, each at a char index of the text, turned into line/column in one pass.
        List<PendingProblem> pending = new ArrayList<>(sink.recorded);
        if (sink.extraLines > 0) {
            pending.add(new PendingProblem(sink.firstExtraCharIndex, "undecodable bytes on " + sink.extraLines
                    + " more line" + (sink.extraLines == 1 ? "" : "s") + " not reported"));
        }
        if (indexOfZero(bytes) >= 0) {
            int at = text.indexOf('\0');
            pending.add(new PendingProblem(Math.max(at, 0), NULL_BYTES));
        }
        List<DecodeProblem> problems = new ArrayList<>(pending.size() + 1);
        if (cookieProblem != null) {
            problems.add(new DecodeProblem(cookieProblem.cookie().line(),
                    cookieColumn(bytes, cookieProblem.cookie().line() == 1 ? start : start2, cookieProblem.cookie().begin()),
                    cookieProblem.message()));
        }
        problems.addAll(locate(text, pending));
        problems.sort(Comparator.comparingInt(DecodeProblem::line).thenComparingInt(DecodeProblem::column));
        List<DecodeProblem> invalidUtf8 = codec.kind() == PythonCodecs.Kind.UTF8 && cookieProblem == null
                ? locate(text, sink.everyLine) : List.of();
        return new Decoded(text, codec.name(), List.copyOf(problems), invalidUtf8);
    }

    /** Problems of already-decoded text ({@link SourceText#of}): NUL and lone surrogates, which CPython rejects. */
    static List<DecodeProblem> checkText(String text) {
        List<PendingProblem> pending = new ArrayList<>(2);
        int nul = text.indexOf('\0');
        if (nul >= 0) {
            pending.add(new PendingProblem(nul, NULL_BYTES));
        }
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                    continue;
                }
                pending.add(new PendingProblem(i, String.format(Locale.ROOT,
                        "'utf-8' codec can't encode character '\\u%04x': surrogates not allowed", (int) c)));
                break;
            }
        }
        List<DecodeProblem> problems = new ArrayList<>(locate(text, pending));
        problems.sort(Comparator.comparingInt(DecodeProblem::line).thenComparingInt(DecodeProblem::column));
        return List.copyOf(problems);
    }

    /** Decodes all of {@code bytes} with {@code codec}, undecodable bytes replaced (for tests). */
    static String decodeWith(PythonCodecs.Codec codec, byte[] bytes) {
        Out out = new Out(bytes.length + 16);
        ErrorSink sink = new ErrorSink(codec.name(), "");
        switch (codec.kind()) {
            case UTF8 -> decodeUtf8(bytes, 0, bytes.length, out, sink);
            case ASCII -> decodeAscii(bytes, 0, bytes.length, out, sink);
            case TABLE -> decodeTable(bytes, 0, bytes.length, codec.table(), out, sink);
            case JAVA -> decodeJava(bytes, 0, bytes.length, codec.javaCharset(), codec.name(), out, sink);
            case UTF16_BOM -> decodeWithBom(bytes, 0, bytes.length, 2, codec.javaCharset(), out, sink);
            case UTF32_BOM -> decodeWithBom(bytes, 0, bytes.length, 4, codec.javaCharset(), out, sink);
            default -> throw new IllegalArgumentException("cannot decode with " + codec);
        }
        return out.toString();
    }

    // ---- coding declaration ----

    /** A coding declaration: its line (1 or 2), the name's byte range and the name. */
    private record Cookie(int line, int begin, int end, String name) {}

    private static int lineEnd(byte[] b, int from) {
        int i = from;
        while (i < b.length && b[i] != '\n' && b[i] != '\r') {
            i++;
        }
        return i;
    }

    private static int nextLineStart(byte[] b, int lineEnd) {
        if (b[lineEnd] == '\r' && lineEnd + 1 < b.length && b[lineEnd + 1] == '\n') {
            return lineEnd + 2;
        }
        return lineEnd + 1;
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\f';
    }

    /** {@code check_coding_spec}: a line that is blank or only a comment lets CPython look at the next one. */
    private static boolean blankOrComment(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == '#') {
                return true;
            }
            if (!isSpace(b[i])) {
                return false;
            }
        }
        return true;
    }

    /** {@code get_coding_spec} over the line {@code [from, to)} (without its line break). */
    private static Cookie codingSpec(byte[] b, int from, int to, int line) {
        int i = from;
        while (i < to && isSpace(b[i])) {
            i++;
        }
        if (i >= to || b[i] != '#') {
            return null;
        }
        for (; i + 6 < to; i++) {
            if (b[i] == 'c' && b[i + 1] == 'o' && b[i + 2] == 'd' && b[i + 3] == 'i' && b[i + 4] == 'n'
                    && b[i + 5] == 'g') {
                int t = i + 6;
                if (b[t] != ':' && b[t] != '=') {
                    continue;
                }
                do {
                    t++;
                } while (t < to && (b[t] == ' ' || b[t] == '\t'));
                int begin = t;
                while (t < to && isNameByte(b[t])) {
                    t++;
                }
                if (begin < t) {
                    return new Cookie(line, begin, t, new String(b, begin, t - begin, StandardCharsets.ISO_8859_1));
                }
            }
        }
        return null;
    }

    private static boolean isNameByte(byte c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '_' || c == '.';
    }

    /** CPython's {@code get_normal_name}: utf-8 and latin-1 spellings to one name; anything else unchanged. */
    static String getNormalName(String s) {
        StringBuilder buf = new StringBuilder(12);
        for (int i = 0; i < s.length() && i < 12; i++) {
            char c = s.charAt(i);
            buf.append(c == '_' ? '-' : (c >= 'A' && c <= 'Z') ? (char) (c + 32) : c);
        }
        String b = buf.toString();
        if (b.equals("utf-8") || b.startsWith("utf-8-")) {
            return "utf-8";
        }
        if (b.equals("latin-1") || b.equals("iso-8859-1") || b.equals("iso-latin-1")
                || b.startsWith("latin-1-") || b.startsWith("iso-8859-1-") || b.startsWith("iso-latin-1-")) {
            return "iso-8859-1";
        }
        return s;
    }

    /** 1-based code-point column of the declared name, the line's bytes before it read as (lenient) UTF-8. */
    private static int cookieColumn(byte[] b, int lineStart, int nameBegin) {
        Out out = new Out(nameBegin - lineStart + 4);
        decodeUtf8(b, lineStart, nameBegin, out, new ErrorSink("utf-8", ""));
        return out.codePointCount() + 1;
    }

    // ---- decoders ----

    /** A growable char buffer. */
    static final class Out {
        char[] buf;
        int len;

        Out(int capacity) {
            buf = new char[Math.max(capacity, 16)];
        }

        void ensure(int extra) {
            if (len + extra > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
            }
        }

        void put(char c) {
            ensure(1);
            buf[len++] = c;
        }

        int codePointCount() {
            return Character.codePointCount(buf, 0, len);
        }

        @Override
        public String toString() {
            return new String(buf, 0, len);
        }
    }

    /** A problem before its position is known: the char index in the text where it is. */
    private record PendingProblem(int charIndex, String message, Cookie cookie) {
        PendingProblem(int charIndex, String message) {
            this(charIndex, message, null);
        }

        PendingProblem(Cookie cookie, String message) {
            this(-1, message, cookie);
        }
    }

    /** Collects the first decoding error of each line, up to {@link #MAX_DECODE_ERROR_LINES} lines. */
    static final class ErrorSink {
        private final String codec;
        private final String prefix;
        final List<PendingProblem> recorded = new ArrayList<>();
        /** The first error of every line, past the limit too. */
        final List<PendingProblem> everyLine = new ArrayList<>();
        int extraLines;
        int firstExtraCharIndex = -1;
        private int lastCharIndex = -1;
        private int scannedTo;

        ErrorSink(String codec, String prefix) {
            this.codec = codec;
            this.prefix = prefix;
        }

        /**
         * An undecodable byte sequence {@code [byteOffset, byteOffset + byteLen)}, whose replacement goes
         * to {@code out.buf[charIndex]}.
         */
        void error(Out out, int charIndex, byte[] bytes, int byteOffset, int byteLen, String reason) {
            if (lastCharIndex >= 0) {
                boolean newLine = false;
                for (int k = Math.max(scannedTo, lastCharIndex); k < charIndex; k++) {
                    char c = out.buf[k];
                    if (c == '\n' || c == '\r') {
                        newLine = true;
                        break;
                    }
                }
                scannedTo = charIndex;
                if (!newLine) {
                    return;
                }
            }
            lastCharIndex = charIndex;
            scannedTo = charIndex;
            PendingProblem problem = new PendingProblem(charIndex, message(bytes, byteOffset, byteLen, reason));
            everyLine.add(problem);
            if (recorded.size() < MAX_DECODE_ERROR_LINES) {
                recorded.add(problem);
            } else {
                if (extraLines == 0) {
                    firstExtraCharIndex = charIndex;
                }
                extraLines++;
            }
        }

        private String message(byte[] bytes, int offset, int len, String reason) {
            if (len <= 1) {
                return String.format(Locale.ROOT, "%s'%s' codec can't decode byte 0x%02x in position %d: %s",
                        prefix, codec, bytes[offset] & 0xFF, offset, reason);
            }
            return String.format(Locale.ROOT, "%s'%s' codec can't decode bytes in position %d-%d: %s",
                    prefix, codec, offset, offset + len - 1, reason);
        }
    }

    private static boolean cont(int b) {
        return (b & 0xC0) == 0x80;
    }

    /**
     * UTF-8 with CPython's error ranges: each maximal invalid subsequence becomes one U+FFFD, as
     * {@code bytes.decode('utf-8', 'replace')} does, and is reported with CPython's reason.
     */
    static void decodeUtf8(byte[] b, int from, int to, Out out, ErrorSink sink) {
        out.ensure(to - from);
        char[] buf = out.buf;
        int len = out.len;
        int i = from;
        while (i < to) {
            int c = b[i];
            if (c >= 0) {
                buf[len++] = (char) c;
                i++;
                continue;
            }
            c &= 0xFF;
            int errLen;
            String reason;
            if (c < 0xC2 || c > 0xF4) {
                errLen = 1;
                reason = "invalid start byte";
            } else if (c < 0xE0) {
                if (i + 1 >= to) {
                    errLen = to - i;
                    reason = "unexpected end of data";
                } else if (!cont(b[i + 1])) {
                    errLen = 1;
                    reason = "invalid continuation byte";
                } else {
                    buf[len++] = (char) (((c & 0x1F) << 6) | (b[i + 1] & 0x3F));
                    i += 2;
                    continue;
                }
            } else if (c < 0xF0) {
                int lo = c == 0xE0 ? 0xA0 : 0x80;
                int hi = c == 0xED ? 0x9F : 0xBF;
                if (i + 1 >= to) {
                    errLen = to - i;
                    reason = "unexpected end of data";
                } else if ((b[i + 1] & 0xFF) < lo || (b[i + 1] & 0xFF) > hi) {
                    errLen = 1;
                    reason = "invalid continuation byte";
                } else if (i + 2 >= to) {
                    errLen = to - i;
                    reason = "unexpected end of data";
                } else if (!cont(b[i + 2])) {
                    errLen = 2;
                    reason = "invalid continuation byte";
                } else {
                    buf[len++] = (char) (((c & 0x0F) << 12) | ((b[i + 1] & 0x3F) << 6) | (b[i + 2] & 0x3F));
                    i += 3;
                    continue;
                }
            } else {
                int lo = c == 0xF0 ? 0x90 : 0x80;
                int hi = c == 0xF4 ? 0x8F : 0xBF;
                if (i + 1 >= to) {
                    errLen = to - i;
                    reason = "unexpected end of data";
                } else if ((b[i + 1] & 0xFF) < lo || (b[i + 1] & 0xFF) > hi) {
                    errLen = 1;
                    reason = "invalid continuation byte";
                } else if (i + 2 >= to) {
                    errLen = to - i;
                    reason = "unexpected end of data";
                } else if (!cont(b[i + 2])) {
                    errLen = 2;
                    reason = "invalid continuation byte";
                } else if (i + 3 >= to) {
                    errLen = to - i;
                    reason = "unexpected end of data";
                } else if (!cont(b[i + 3])) {
                    errLen = 3;
                    reason = "invalid continuation byte";
                } else {
                    int cp = ((c & 0x07) << 18) | ((b[i + 1] & 0x3F) << 12) | ((b[i + 2] & 0x3F) << 6)
                            | (b[i + 3] & 0x3F);
                    buf[len++] = Character.highSurrogate(cp);
                    buf[len++] = Character.lowSurrogate(cp);
                    i += 4;
                    continue;
                }
            }
            out.len = len;
            sink.error(out, len, b, i, errLen, reason);
            buf[len++] = REPLACEMENT;
            i += errLen;
        }
        out.len = len;
    }

    private static void decodeAscii(byte[] b, int from, int to, Out out, ErrorSink sink) {
        out.ensure(to - from);
        for (int i = from; i < to; i++) {
            int c = b[i];
            if (c < 0) {
                sink.error(out, out.len, b, i, 1, "ordinal not in range(128)");
                out.buf[out.len++] = REPLACEMENT;
            } else {
                out.buf[out.len++] = (char) c;
            }
        }
    }

    private static void decodeTable(byte[] b, int from, int to, char[] table, Out out, ErrorSink sink) {
        out.ensure(to - from);
        for (int i = from; i < to; i++) {
            char c = table[b[i] & 0xFF];
            if (c == '\uFFFE') {
                sink.error(out, out.len, b, i, 1, "character maps to <undefined>");
                c = REPLACEMENT;
            }
            out.buf[out.len++] = c;
        }
    }

    /** Python's {@code utf-16}/{@code utf-32}: a BOM picks the byte order and is dropped; else little-endian. */
    private static void decodeWithBom(byte[] b, int from, int to, int unit, String leCharset, Out out, ErrorSink sink) {
        String charset = leCharset;
        int n = to - from;
        if (unit == 2 && n >= 2) {
            if ((b[from] & 0xFF) == 0xFF && (b[from + 1] & 0xFF) == 0xFE) {
                from += 2;
            } else if ((b[from] & 0xFF) == 0xFE && (b[from + 1] & 0xFF) == 0xFF) {
                from += 2;
                charset = "UTF-16BE";
            }
        } else if (unit == 4 && n >= 4) {
            if ((b[from] & 0xFF) == 0xFF && (b[from + 1] & 0xFF) == 0xFE && b[from + 2] == 0 && b[from + 3] == 0) {
                from += 4;
            } else if (b[from] == 0 && b[from + 1] == 0 && (b[from + 2] & 0xFF) == 0xFE && (b[from + 3] & 0xFF) == 0xFF) {
                from += 4;
                charset = "UTF-32BE";
            }
        }
        decodeJava(b, from, to, charset, "", out, sink);
    }

    /** Through a JDK charset, with {@link PythonCodecs}' fix-ups for the Python codec {@code codecName}. */
    private static void decodeJava(byte[] b, int from, int to, String charset, String codecName, Out out, ErrorSink sink) {
        int outStart = out.len;
        CharsetDecoder dec = Charset.forName(charset).newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(b, from, to - from);
        out.ensure((int) Math.min(Integer.MAX_VALUE - 16L, (long) ((to - from) * (double) dec.averageCharsPerByte())) + 16);
        CharBuffer cb = CharBuffer.wrap(out.buf);
        cb.position(out.len);
        boolean flushing = false;
        while (true) {
            CoderResult r = flushing ? dec.flush(cb) : dec.decode(in, cb, true);
            out.len = cb.position();
            if (r.isUnderflow()) {
                if (flushing) {
                    break;
                }
                flushing = true;
                continue;
            }
            if (r.isOverflow()) {
                out.ensure(Math.max(16, out.buf.length));
                cb = CharBuffer.wrap(out.buf);
                cb.position(out.len);
                continue;
            }
            int at = in.position();
            int errLen = Math.max(1, Math.min(r.length(), to - at));
            char fixed = errLen == 1 ? PythonCodecs.jdkRejectedByte(codecName, b[at] & 0xFF) : 0;
            if (fixed != 0) {
                out.put(fixed);
            } else {
                sink.error(out, out.len, b, at, errLen,
                        at + errLen >= to && r.isMalformed() ? "incomplete multibyte sequence" : "illegal multibyte sequence");
                out.put(REPLACEMENT);
            }
            cb = CharBuffer.wrap(out.buf);
            cb.position(out.len);
            in.position(Math.min(to, at + errLen));
        }
        if (PythonCodecs.jisHorizontalBar(codecName)) {
            for (int k = outStart; k < out.len; k++) {
                if (out.buf[k] == '\u2014') {
                    out.buf[k] = '\u2015';
                }
            }
        }
    }

    // ---- positions ----

    private static int indexOfZero(byte[] b) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] == 0) {
                return i;
            }
        }
        return -1;
    }

    /** Line and code-point column (both 1-based) of each pending problem's char index, CR/LF/CRLF ending lines. */
    private static List<DecodeProblem> locate(String text, List<PendingProblem> pending) {
        if (pending.isEmpty()) {
            return List.of();
        }
        List<PendingProblem> sorted = new ArrayList<>(pending);
        sorted.sort(Comparator.comparingInt(PendingProblem::charIndex));
        List<DecodeProblem> result = new ArrayList<>(sorted.size());
        int line = 1;
        int lineStart = 0;
        int i = 0;
        int n = text.length();
        for (PendingProblem p : sorted) {
            int target = Math.min(Math.max(p.charIndex(), 0), n);
            while (i < target) {
                char c = text.charAt(i++);
                if (c == '\n' || (c == '\r' && !(i < n && text.charAt(i) == '\n'))) {
                    line++;
                    lineStart = i;
                }
            }
            result.add(new DecodeProblem(line, Character.codePointCount(text, lineStart, target) + 1, p.message()));
        }
        return result;
    }
}
