package dev.graphmend.lsp;

import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.document.TextChange;
import dev.graphmend.ir.source.LineIndex;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PositionEncodingKind;
import org.eclipse.lsp4j.Range;

/**
 * Conversions between the engine's positions (CPython: 1-based lines, UTF-8 byte columns) and
 * LSP's (0-based lines, columns in the negotiated position encoding). Lines of the index are the
 * document's lines (LF, CRLF and lone CR end a line, as in LSP), so only columns need converting.
 */
final class Positions {
    /** The position encodings the server can speak; UTF-16 is LSP's default. */
    enum Encoding {
        UTF8(PositionEncodingKind.UTF8), UTF16(PositionEncodingKind.UTF16), UTF32(PositionEncodingKind.UTF32);

        final String id;

        Encoding(String id) { this.id = id; }

        /** The first of the client's encodings the server speaks, in the client's order of preference. */
        static Encoding negotiate(java.util.List<String> offered) {
            if (offered != null) {
                for (String o : offered) {
                    for (Encoding e : values()) if (e.id.equals(o)) return e;
                }
            }
            return UTF16;
        }
    }

    private final LineIndex lines;
    private final Encoding encoding;

    Positions(LineIndex lines, Encoding encoding) {
        this.lines = lines;
        this.encoding = encoding;
    }

    int lineCount() { return lines.lineCount(); }

    /** An engine span as an LSP range; lines past the end clamp to the last line. */
    Range range(Span s) {
        return new Range(position(s.line(), s.col()), position(s.endLine(), s.endCol()));
    }

    /** A 1-based line and UTF-8 column as an LSP position. */
    Position position(int line, int utf8Col) {
        int l = Math.max(1, Math.min(line, lines.lineCount()));
        int col;
        switch (encoding) {
            case UTF8: col = lines.utf8Column(l, lines.cpColumnFromUtf8(l, utf8Col)); break;
            case UTF32: col = lines.cpColumnFromUtf8(l, utf8Col); break;
            default: col = lines.utf16ColumnFromUtf8(l, utf8Col); break;
        }
        return new Position(l - 1, col);
    }

    /** True when the position names a line of the document (any column: LSP clamps columns). */
    boolean inRange(Position p) {
        return p.getLine() >= 0 && p.getCharacter() >= 0 && p.getLine() < lines.lineCount();
    }

    /** The code-point column of an LSP position on its (0-based) line, clamped to the line. */
    int cpColumn(Position p) {
        int l = Math.max(1, Math.min(p.getLine() + 1, lines.lineCount()));
        switch (encoding) {
            case UTF8: return lines.cpColumnFromUtf8(l, p.getCharacter());
            case UTF32: return Math.max(0, Math.min(p.getCharacter(), lines.lineText(l).codePointCount(0, lines.lineText(l).length())));
            default: return lines.cpColumnFromUtf16(l, p.getCharacter());
        }
    }

    /** The UTF-8 column of an LSP position (the engine's unit). */
    int utf8Column(Position p) {
        int l = Math.max(1, Math.min(p.getLine() + 1, lines.lineCount()));
        return lines.utf8Column(l, cpColumn(p));
    }

    /** An LSP position in UTF-16 units, as {@link TextChange} wants it. Lines past the end stay past it. */
    TextChange.Position utf16(Position p) {
        if (encoding == Encoding.UTF16 || p.getLine() >= lines.lineCount() || p.getLine() < 0) {
            return new TextChange.Position(p.getLine(), p.getCharacter());
        }
        return new TextChange.Position(p.getLine(), lines.utf16Column(p.getLine() + 1, cpColumn(p)));
    }

    /** An LSP position from a 0-based line and UTF-16 column (a Java string index within the line). */
    Position fromUtf16(int line0, int utf16Col) {
        if (encoding == Encoding.UTF16) return new Position(line0, utf16Col);
        int l = line0 + 1;
        int cp = lines.cpColumnFromUtf16(l, utf16Col);
        return new Position(line0, encoding == Encoding.UTF32 ? cp : lines.utf8Column(l, cp));
    }

    static int compare(Position a, Position b) {
        return a.getLine() != b.getLine() ? Integer.compare(a.getLine(), b.getLine())
                : Integer.compare(a.getCharacter(), b.getCharacter());
    }

    /** Whether two ranges share a point (touching ends count). */
    static boolean intersects(Range a, Range b) {
        return compare(a.getStart(), b.getEnd()) <= 0 && compare(b.getStart(), a.getEnd()) <= 0;
    }

    static boolean contains(Range r, Position p) {
        return compare(r.getStart(), p) <= 0 && compare(p, r.getEnd()) <= 0;
    }
}
