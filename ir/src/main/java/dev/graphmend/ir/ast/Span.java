package dev.graphmend.ir.ast;

/**
 * A node's position as CPython reports it: 1-based lines, columns in UTF-8 bytes from the
 * start of the line (CPython's lineno, col_offset, end_lineno, end_col_offset).
 */
public record Span(int line, int col, int endLine, int endCol) {
    public static Span between(Span start, Span end) {
        return new Span(start.line, start.col, end.endLine, end.endCol);
    }

    public Span withEnd(Span end) {
        return new Span(line, col, end.endLine, end.endCol);
    }

    public Span withStart(Span start) {
        return new Span(start.line, start.col, endLine, endCol);
    }

    public Span shiftLines(int delta) {
        return delta == 0 ? this : new Span(line + delta, col, endLine + delta, endCol);
    }

    @Override
    public String toString() {
        return line + ":" + col + "-" + endLine + ":" + endCol;
    }
}
