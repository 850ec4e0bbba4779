package dev.graphmend.ir.parse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A deliberately small, forgiving scan of Python source bytes for the mutation test: which
 * bytes are code, comment, string or triple-quoted string; where physical lines start; which
 * lines start a logical line (outside brackets, strings and backslash continuations) and with
 * what indentation; and where the closing brackets of code are. It never fails, whatever the
 * bytes. It is not the parser under test and decides only which mutations the containment
 * property applies to.
 */
final class MutationLex {
    static final byte CODE = 0, COMMENT = 1, STRING = 2, TRIPLE = 3;

    final byte[] src;
    /** Class of each byte: CODE, COMMENT, STRING (from the opening to the closing quote) or TRIPLE. */
    final byte[] cls;
    /** Start offset of each physical line: lineStarts[k] is line k + 1. */
    final int[] lineStarts;
    /** Number of line breaks (\n, \r\n and a lone \r each count once). */
    final int lineBreaks;
    /** Per line (1-based): starts a logical line. */
    final boolean[] logicalStart;
    /** Per line (1-based): indentation width as CPython computes it (tab to next multiple of 8, form feed resets). */
    final int[] indent;
    /** Per line (1-based): only whitespace and maybe a comment. */
    final boolean[] blank;
    /** String tokens, in order: {start, end (exclusive), 1 if triple-quoted}. */
    final List<int[]> strings = new ArrayList<>();
    /** Offsets of the closing brackets that are code (not in strings or comments). */
    final List<Integer> codeClosers = new ArrayList<>();

    MutationLex(byte[] src) {
        this.src = src;
        this.cls = new byte[src.length];
        int n = src.length;
        int[] starts = new int[16];
        int count = 1;
        int breaks = 0;
        for (int i = 0; i < n; i++) {
            byte c = src[i];
            if (c == '\n' || c == '\r') {
                if (c == '\r' && i + 1 < n && src[i + 1] == '\n') i++;
                breaks++;
                if (count == starts.length) starts = Arrays.copyOf(starts, count * 2);
                starts[count++] = i + 1;
            }
        }
        this.lineStarts = Arrays.copyOf(starts, count);
        this.lineBreaks = breaks;
        this.logicalStart = new boolean[count + 2];
        this.indent = new int[count + 2];
        this.blank = new boolean[count + 2];
        scan();
    }

    int lineCount() {
        return lineStarts.length;
    }

    /** 1-based line of a byte offset (offsets at or past the end map to the last line). */
    int lineOf(int offset) {
        int i = Arrays.binarySearch(lineStarts, offset);
        return i >= 0 ? i + 1 : -i - 1;
    }

    int lineStart(int line) {
        return line - 1 < lineStarts.length ? lineStarts[line - 1] : src.length;
    }

    /** End of the line's content, before its line break. */
    int lineContentEnd(int line) {
        int end = lineStart(line + 1);
        if (line < lineStarts.length) {
            if (end > 0 && src[end - 1] == '\n') end--;
            if (end > 0 && src[end - 1] == '\r') end--;
        }
        return Math.max(end, lineStart(line));
    }

    /** The string token containing offset, or null. */
    int[] stringAt(int offset) {
        int lo = 0, hi = strings.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int[] s = strings.get(mid);
            if (offset < s[0]) hi = mid - 1;
            else if (offset >= s[1]) lo = mid + 1;
            else return s;
        }
        return null;
    }

    boolean isLineBreakByte(int offset) {
        return src[offset] == '\n' || src[offset] == '\r';
    }

    // --- scanning -------------------------------------------------------------------------

    private void scan() {
        int n = src.length;
        int pos = 0, depth = 0;
        boolean continued = false, atLineStart = true;
        while (pos < n) {
            if (atLineStart) {
                int line = lineOf(pos);
                if (depth == 0 && !continued) {
                    logicalStart[line] = true;
                    measureIndent(line, pos);
                }
                atLineStart = false;
                continued = false;
            }
            byte c = src[pos];
            if (c == '#') {
                int end = pos;
                while (end < n && src[end] != '\n' && src[end] != '\r') end++;
                Arrays.fill(cls, pos, end, COMMENT);
                pos = end;
            } else if (c == '\n' || c == '\r') {
                pos += (c == '\r' && pos + 1 < n && src[pos + 1] == '\n') ? 2 : 1;
                atLineStart = true;
            } else if (c == '\\') {
                if (pos + 1 < n && (src[pos + 1] == '\n' || src[pos + 1] == '\r')) continued = true;
                pos++;
            } else if (c == '"' || c == '\'') {
                int end = scanString(pos, fPrefix(pos));
                boolean triple = isTripleAt(pos);
                Arrays.fill(cls, pos, end, triple ? TRIPLE : STRING);
                strings.add(new int[] {pos, end, triple ? 1 : 0});
                pos = end;
            } else {
                if (c == '(' || c == '[' || c == '{') depth++;
                else if (c == ')' || c == ']' || c == '}') {
                    depth = Math.max(0, depth - 1);
                    codeClosers.add(pos);
                }
                pos++;
            }
        }
        if (atLineStart && depth == 0 && !continued) {
            int line = lineOf(n);
            if (line <= lineCount()) {
                logicalStart[line] = true;
                measureIndent(line, n);
            }
        }
    }

    private void measureIndent(int line, int pos) {
        int col = 0, n = src.length;
        while (pos < n) {
            byte c = src[pos];
            if (c == ' ') col++;
            else if (c == '\t') col = (col / 8 + 1) * 8;
            else if (c == '\f') col = 0;
            else break;
            pos++;
        }
        indent[line] = col;
        blank[line] = pos >= n || src[pos] == '#' || src[pos] == '\n' || src[pos] == '\r';
    }

    private boolean isTripleAt(int pos) {
        byte q = src[pos];
        return pos + 2 < src.length && src[pos + 1] == q && src[pos + 2] == q;
    }

    /** Whether the string starting with the quote at pos has a prefix with f (f, rf, fr ...). */
    private boolean fPrefix(int pos) {
        int p = pos - 1;
        boolean f = false;
        int letters = 0;
        while (p >= 0 && letters < 3 && isPrefixLetter(src[p])) {
            if (src[p] == 'f' || src[p] == 'F') f = true;
            p--;
            letters++;
        }
        if (p >= 0 && isIdentByte(src[p])) return false; // part of a longer name
        return f;
    }

    private static boolean isPrefixLetter(byte c) {
        return "rRbBuUfF".indexOf(c) >= 0;
    }

    private static boolean isIdentByte(byte c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c < 0;
    }

    private boolean closesAt(int p, byte q, boolean triple) {
        if (src[p] != q) return false;
        return !triple || (p + 2 < src.length && src[p + 1] == q && src[p + 2] == q);
    }

    private int skipEscape(int p) {
        // p is at a backslash: skip it and the next character (a \r\n counts as one)
        int n = src.length;
        if (p + 2 < n && src[p + 1] == '\r' && src[p + 2] == '\n') return p + 3;
        return Math.min(n, p + 2);
    }

    /** Returns the offset just after the string whose opening quote is at pos (or where it gave up). */
    private int scanString(int pos, boolean f) {
        int n = src.length;
        byte q = src[pos];
        boolean triple = isTripleAt(pos);
        int p = pos + (triple ? 3 : 1);
        while (p < n) {
            byte c = src[p];
            if (c == '\\') {
                // a backslash escapes the next character, but never an f-string's { or }
                p = f && p + 1 < n && (src[p + 1] == '{' || src[p + 1] == '}') ? p + 1 : skipEscape(p);
            } else if (closesAt(p, q, triple)) {
                return p + (triple ? 3 : 1);
            } else if (!triple && (c == '\n' || c == '\r')) {
                return p; // unterminated: a single-quoted string ends at the line's end
            } else if (f && c == '{') {
                if (p + 1 < n && src[p + 1] == '{') p += 2;
                else p = scanFieldExpr(p + 1, q, triple);
            } else {
                p++;
            }
        }
        return n;
    }

    /** Scans an f-string replacement field's expression from p; returns the offset after its '}'. */
    private int scanFieldExpr(int p, byte q, boolean triple) {
        int n = src.length, depth = 0;
        while (p < n) {
            byte c = src[p];
            if (!triple && (c == '\n' || c == '\r')) return p;
            if (c == '"' || c == '\'') {
                p = scanString(p, fPrefix(p));
            } else if (c == '#' && triple) {
                while (p < n && src[p] != '\n' && src[p] != '\r') p++;
            } else if (c == '(' || c == '[' || c == '{') {
                depth++;
                p++;
            } else if (c == ')' || c == ']') {
                depth = Math.max(0, depth - 1);
                p++;
            } else if (c == '}') {
                if (depth == 0) return p + 1;
                depth--;
                p++;
            } else if (c == ':' && depth == 0) {
                return scanFormatSpec(p + 1, q, triple);
            } else if (c == '\\') {
                p = skipEscape(p);
            } else {
                p++;
            }
        }
        return n;
    }

    private int scanFormatSpec(int p, byte q, boolean triple) {
        int n = src.length;
        while (p < n) {
            byte c = src[p];
            if (!triple && (c == '\n' || c == '\r')) return p;
            if (closesAt(p, q, triple)) return p;
            if (c == '{') {
                if (p + 1 < n && src[p + 1] == '{') p += 2;
                else p = scanFieldExpr(p + 1, q, triple);
            } else if (c == '}') {
                return p + 1;
            } else if (c == '\\') {
                p = skipEscape(p);
            } else {
                p++;
            }
        }
        return n;
    }
}
