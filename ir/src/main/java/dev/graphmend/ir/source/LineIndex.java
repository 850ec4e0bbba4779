package dev.graphmend.ir.source;

import java.util.Arrays;

/**
 * Lines of a text whose only line break is LF ({@link SourceText#normalized()}), and conversions
 * between the three column units a Python tool meets:
 * <ul>
 *   <li>code points (what the lexer counts),</li>
 *   <li>UTF-8 bytes (CPython's {@code col_offset}/{@code end_col_offset}),</li>
 *   <li>UTF-16 code units (LSP's {@code character}, and Java's {@code String} index).</li>
 * </ul>
 * Lines are 1-based, columns and offsets 0-based. Nothing throws: a line below 1 means line 1, a line
 * past the end the last line, a negative column 0 and a column past the end of the line the end of
 * the line (the line's text without its newline). A UTF-8 or UTF-16 column that falls inside a
 * character is rounded down to the start of that character.
 *
 * <p>Line starts are computed once. A line that is all ASCII converts in O(1) (every unit is the same
 * there); other lines are walked from their start. A lone surrogate (possible only in text from
 * {@link SourceText#of}) counts as one code point, one UTF-16 unit and three UTF-8 bytes.
 *
 * <p>Immutable, so safe to share between threads.
 */
public final class LineIndex {
    /** Every char below 0x80. */
    private static final byte ASCII = 0;
    /** Some char at or above 0x80, no surrogate: UTF-16 and code-point columns agree. */
    private static final byte BMP = 1;
    /** Some surrogate (a pair or a lone one). */
    private static final byte ASTRAL = 2;

    private final String text;
    private final int lineCount;
    /** Index in {@link #text} (UTF-16 units) where each line starts. */
    private final int[] charStart;
    /** Code-point offset where each line starts. */
    private final int[] cpStart;
    /** {@link #ASCII}, {@link #BMP} or {@link #ASTRAL}, per line. */
    private final byte[] kind;
    private final int totalCodePoints;

    public LineIndex(String normalizedText) {
        String t = normalizedText == null ? "" : normalizedText;
        Lines b = new Lines(Math.max(16, t.length() / 32));
        b.scan(t, 0, t.length());
        this.text = t;
        this.lineCount = b.line + 1;
        this.charStart = Arrays.copyOf(b.starts, lineCount);
        this.cpStart = Arrays.copyOf(b.cps, lineCount);
        this.kind = Arrays.copyOf(b.kinds, lineCount);
        this.totalCodePoints = b.cp;
    }

    private LineIndex(String text, int lineCount, int[] charStart, int[] cpStart, byte[] kind, int totalCodePoints) {
        this.text = text;
        this.lineCount = lineCount;
        this.charStart = charStart;
        this.cpStart = cpStart;
        this.kind = kind;
        this.totalCodePoints = totalCodePoints;
    }

    /**
     * The index of {@code after}, which is {@code before}'s text with the characters from {@code
     * start} to {@code end} replaced by {@code inserted}: the lines above the edit are kept, those
     * it touches scanned again, those below moved (a keystroke in a 5,000-line file scanned all of
     * it, at every keystroke). Equal to {@code new LineIndex(after)}. The caller vouches for the
     * text around the range (comparing it would read the whole text again); the lengths and the
     * inserted text are checked, and an index is built from the whole text when they disagree.
     */
    public static LineIndex edited(LineIndex before, int start, int end, String inserted, String after) {
        String old = before.text;
        int delta = inserted.length() - (end - start);
        if (start < 0 || end < start || end > old.length() || after.length() != old.length() + delta
                || !after.regionMatches(start, inserted, 0, inserted.length())) {
            return new LineIndex(after);
        }
        int first = lineIndexOfChar(before, start), last = lineIndexOfChar(before, end);
        boolean toEnd = last + 1 == before.lineCount;
        int to = toEnd ? after.length() : before.charStart[last + 1] + delta; // the first line below the edit, moved
        Lines b = new Lines(before.lineCount + 16);
        System.arraycopy(before.charStart, 0, b.starts, 0, first + 1);
        System.arraycopy(before.cpStart, 0, b.cps, 0, first + 1);
        System.arraycopy(before.kind, 0, b.kinds, 0, first);
        b.line = first;
        b.cp = before.cpStart[first];
        b.scan(after, before.charStart[first], to);
        if (toEnd) {
            return new LineIndex(after, b.line + 1, Arrays.copyOf(b.starts, b.line + 1), Arrays.copyOf(b.cps, b.line + 1),
                    Arrays.copyOf(b.kinds, b.line + 1), b.cp);
        }
        // the scan ended at the start of the old line last + 1, which it opened: that line and those below move
        int below = before.lineCount - (last + 1);
        int lines = b.line + below;
        int cpDelta = b.cp - before.cpStart[last + 1];
        int[] starts = Arrays.copyOf(b.starts, lines);
        int[] cps = Arrays.copyOf(b.cps, lines);
        byte[] kinds = Arrays.copyOf(b.kinds, lines);
        for (int k = 0; k < below; k++) {
            starts[b.line + k] = before.charStart[last + 1 + k] + delta;
            cps[b.line + k] = before.cpStart[last + 1 + k] + cpDelta;
            kinds[b.line + k] = before.kind[last + 1 + k];
        }
        return new LineIndex(after, lines, starts, cps, kinds, before.totalCodePoints + cpDelta);
    }

    /** 0-based line holding the UTF-16 unit at {@code charIndex} (the last line for the end of the text). */
    private static int lineIndexOfChar(LineIndex l, int charIndex) {
        int found = Arrays.binarySearch(l.charStart, 0, l.lineCount, charIndex);
        return found >= 0 ? found : -found - 2;
    }

    /** Line starts, code-point offsets and kinds as a scan finds them. */
    private static final class Lines {
        int[] starts;
        int[] cps;
        byte[] kinds;
        /** The 0-based line being scanned; it starts at {@code starts[line]}, code point {@code cps[line]}. */
        int line;
        int cp;

        Lines(int capacity) {
            starts = new int[capacity];
            cps = new int[capacity];
            kinds = new byte[capacity];
        }

        /**
         * Scans {@code t} from {@code from} (the start of the current line) to {@code to}: each
         * newline closes the current line with its kind and opens the next; at the end, the line
         * then open gets the kind of what was scanned of it (its last when {@code to} is the end).
         */
        void scan(String t, int from, int to) {
            int n = t.length();
            byte k = ASCII;
            for (int i = from; i < to; i++) {
                char c = t.charAt(i);
                if (c < 0x80) {
                    cp++;
                    if (c == '\n') {
                        kinds[line] = k;
                        line++;
                        if (line == starts.length) {
                            int grown = starts.length * 2;
                            starts = Arrays.copyOf(starts, grown);
                            cps = Arrays.copyOf(cps, grown);
                            kinds = Arrays.copyOf(kinds, grown);
                        }
                        starts[line] = i + 1;
                        cps[line] = cp;
                        k = ASCII;
                    }
                } else if (Character.isSurrogate(c)) {
                    k = ASTRAL;
                    cp++;
                    if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(t.charAt(i + 1))) {
                        i++;
                    }
                } else {
                    if (k == ASCII) {
                        k = BMP;
                    }
                    cp++;
                }
            }
            kinds[line] = k;
        }
    }

    /** Number of lines: "a\nb" has 2, "a\n" has 2 (the last one empty), "" has 1. */
    public int lineCount() {
        return lineCount;
    }

    /** Code-point offset in the text of the first character of {@code line}. */
    public int lineStartCodePoint(int line) {
        return cpStart[idx(line)];
    }

    /**
     * The 1-based line holding the code point at {@code cpOffset}; a newline belongs to the line it
     * ends. Negative offsets give line 1, offsets at or past the end the last line.
     */
    public int lineOfCodePoint(int cpOffset) {
        if (cpOffset <= 0) {
            return 1;
        }
        int found = Arrays.binarySearch(cpStart, 0, lineCount, cpOffset);
        if (found >= 0) {
            // Line starts are strictly increasing, so an exact hit is unique.
            return found + 1;
        }
        return -found - 1; // insertion point - 1 is the 0-based line; +1 for 1-based
    }

    /** The whole (normalized) text. */
    public String text() {
        return text;
    }

    /** The 1-based line holding the UTF-16 unit at {@code charIndex} of {@link #text()} (clamped like lineOfCodePoint). */
    public int lineOfCharIndex(int charIndex) {
        if (charIndex <= 0) {
            return 1;
        }
        int found = Arrays.binarySearch(charStart, 0, lineCount, charIndex);
        return found >= 0 ? found + 1 : -found - 1;
    }

    /** Whether {@code line} here and {@code otherLine} of {@code other} have the same text (no copy of either is made). */
    public boolean sameLine(int line, LineIndex other, int otherLine) {
        int i = idx(line), j = other.idx(otherLine);
        int len = charEnd(i) - charStart[i];
        return len == other.charEnd(j) - other.charStart[j] && text.regionMatches(charStart[i], other.text, other.charStart[j], len);
    }

    /** The text of {@code line}, without its newline. */
    public String lineText(int line) {
        int i = idx(line);
        return text.substring(charStart[i], charEnd(i));
    }

    /** Code-point column to UTF-8 byte column (CPython's {@code col_offset}). */
    public int utf8Column(int line, int cpColumn) {
        int i = idx(line);
        int len = cpLength(i);
        int col = clamp(cpColumn, len);
        if (kind[i] == ASCII) {
            return col;
        }
        int p = charStart[i];
        int bytes = 0;
        for (int c = 0; c < col; c++) {
            int ch = text.codePointAt(p);
            bytes += utf8Width(ch);
            p += Character.charCount(ch);
        }
        return bytes;
    }

    /** UTF-8 byte column to code-point column, rounding down inside a character. */
    public int cpColumnFromUtf8(int line, int utf8Column) {
        int i = idx(line);
        if (kind[i] == ASCII) {
            return clamp(utf8Column, cpLength(i));
        }
        if (utf8Column <= 0) {
            return 0;
        }
        int p = charStart[i];
        int end = charEnd(i);
        int bytes = 0;
        int cps = 0;
        while (p < end) {
            int ch = text.codePointAt(p);
            int w = utf8Width(ch);
            if (bytes + w > utf8Column) {
                break;
            }
            bytes += w;
            cps++;
            p += Character.charCount(ch);
        }
        return cps;
    }

    /** Code-point column to UTF-16 column (LSP's {@code character}). */
    public int utf16Column(int line, int cpColumn) {
        int i = idx(line);
        int len = cpLength(i);
        int col = clamp(cpColumn, len);
        if (kind[i] != ASTRAL) {
            return col;
        }
        int start = charStart[i];
        int p = start;
        for (int c = 0; c < col; c++) {
            p += Character.charCount(text.codePointAt(p));
        }
        return p - start;
    }

    /** UTF-16 column to code-point column, rounding down inside a surrogate pair. */
    public int cpColumnFromUtf16(int line, int utf16Column) {
        int i = idx(line);
        if (kind[i] != ASTRAL) {
            return clamp(utf16Column, cpLength(i));
        }
        if (utf16Column <= 0) {
            return 0;
        }
        int start = charStart[i];
        int end = charEnd(i);
        int limit = start + Math.min(utf16Column, end - start);
        int p = start;
        int cps = 0;
        while (p < end) {
            int next = p + Character.charCount(text.codePointAt(p));
            if (next > limit) {
                break;
            }
            p = next;
            cps++;
        }
        return cps;
    }

    /** UTF-8 byte column to UTF-16 column, rounding down inside a character. */
    public int utf16ColumnFromUtf8(int line, int utf8Column) {
        int i = idx(line);
        if (kind[i] == ASCII) {
            return clamp(utf8Column, charEnd(i) - charStart[i]);
        }
        if (utf8Column <= 0) {
            return 0;
        }
        int start = charStart[i];
        int end = charEnd(i);
        int p = start;
        int bytes = 0;
        while (p < end) {
            int ch = text.codePointAt(p);
            int w = utf8Width(ch);
            if (bytes + w > utf8Column) {
                break;
            }
            bytes += w;
            p += Character.charCount(ch);
        }
        return p - start;
    }

    /** UTF-16 column to UTF-8 byte column, rounding down inside a surrogate pair. */
    public int utf8ColumnFromUtf16(int line, int utf16Column) {
        int i = idx(line);
        int start = charStart[i];
        int end = charEnd(i);
        if (kind[i] == ASCII) {
            return clamp(utf16Column, end - start);
        }
        if (utf16Column <= 0) {
            return 0;
        }
        int limit = start + Math.min(utf16Column, end - start);
        int p = start;
        int bytes = 0;
        while (p < end) {
            int ch = text.codePointAt(p);
            int next = p + Character.charCount(ch);
            if (next > limit) {
                break;
            }
            bytes += utf8Width(ch);
            p = next;
        }
        return bytes;
    }

    @Override
    public String toString() {
        return "LineIndex[" + lineCount + " lines, " + totalCodePoints + " code points]";
    }

    // ---- helpers ----

    /** 0-based index of a clamped 1-based line. */
    private int idx(int line) {
        if (line <= 1) {
            return 0;
        }
        return Math.min(line, lineCount) - 1;
    }

    /** Index in {@link #text} just past the last character of line {@code i} (before its newline). */
    private int charEnd(int i) {
        return i + 1 < lineCount ? charStart[i + 1] - 1 : text.length();
    }

    /** Length of line {@code i} in code points, without its newline. */
    private int cpLength(int i) {
        return (i + 1 < lineCount ? cpStart[i + 1] - 1 : totalCodePoints) - cpStart[i];
    }

    private static int clamp(int column, int max) {
        return column <= 0 ? 0 : Math.min(column, max);
    }

    /** Bytes of a code point in UTF-8; a lone surrogate counts 3, as CPython's surrogatepass would write it. */
    static int utf8Width(int cp) {
        if (cp < 0x80) {
            return 1;
        }
        if (cp < 0x800) {
            return 2;
        }
        return cp < 0x10000 ? 3 : 4;
    }
}
