package dev.graphmend.cli;

import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.source.LineIndex;

/** Span (1-based lines, UTF-8 byte columns) → LSP range (0-based lines, UTF-16 columns). */
final class Ranges {
    private Ranges() {}

    /** {startLine, startChar, endLine, endChar}, all 0-based, characters in UTF-16 code units. */
    static int[] lsp(LineIndex lines, Span s) {
        int last = lines.lineCount();
        int l1 = Math.max(1, Math.min(s.line(), last)), l2 = Math.max(1, Math.min(s.endLine(), last));
        return new int[] {l1 - 1, lines.utf16ColumnFromUtf8(l1, s.col()), l2 - 1, lines.utf16ColumnFromUtf8(l2, s.endCol())};
    }
}
