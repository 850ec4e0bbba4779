package dev.graphmend.ir.document;

/**
 * One change to a document as an editor sends it (LSP's TextDocumentContentChangeEvent):
 * replace {@code range} with {@code text}, or the whole text when {@code range} is null.
 * Lines are 0-based; characters count UTF-16 code units; the end is exclusive.
 */
public record TextChange(Range range, String text) {
    public record Position(int line, int character) {}

    public record Range(Position start, Position end) {
        public static Range of(int startLine, int startChar, int endLine, int endChar) {
            return new Range(new Position(startLine, startChar), new Position(endLine, endChar));
        }
    }

    public static TextChange replaceAll(String text) {
        return new TextChange(null, text);
    }

    public static TextChange replace(int startLine, int startChar, int endLine, int endChar, String text) {
        return new TextChange(Range.of(startLine, startChar, endLine, endChar), text);
    }
}
