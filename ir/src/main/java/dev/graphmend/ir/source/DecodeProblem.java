package dev.graphmend.ir.source;

/**
 * Something that keeps CPython from decoding a source file (or, for an invalid byte in default UTF-8
 * mode, from running it as a script; see {@link SourceText#problems()}).
 *
 * @param line    1-based line in {@link SourceText#text()} (CR, LF and CRLF all end a line)
 * @param column  1-based column in code points
 * @param message what is wrong, worded like CPython's error where there is one
 */
public record DecodeProblem(int line, int column, String message) {
    @Override
    public String toString() {
        return line + ":" + column + ": " + message;
    }
}
