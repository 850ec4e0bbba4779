package dev.graphmend.ir.parse;

/**
 * A syntax error found while parsing. {@code line} is 1-based; {@code column} is 1-based and
 * counts code points, like CPython's {@code SyntaxError.offset}; end is exclusive (same units).
 */
public record SyntaxError(int line, int column, int endLine, int endColumn, String message) {
    public SyntaxError(int line, int column, String message) {
        this(line, column, line, column + 1, message);
    }

    @Override
    public String toString() {
        return line + ":" + column + " " + message;
    }
}
