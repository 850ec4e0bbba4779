package dev.graphmend.lsp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.lsp4j.AnnotatedTextEdit;
import org.eclipse.lsp4j.ChangeAnnotation;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentEdit;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.VersionedTextDocumentIdentifier;
import org.eclipse.lsp4j.WorkspaceEdit;
import org.eclipse.lsp4j.jsonrpc.messages.Either;

/**
 * Workspace edits as docs/lsp.md describes them: a {@code TextDocumentEdit} on the version the
 * edit was computed for, each text edit carrying a change annotation (its label and why), when
 * the client supports them; plain versioned edits when it has no change annotations, and a
 * {@code changes} map when it has no document changes either. Only an annotation that says
 * {@code confirm} (an unsafe fix) asks the editor to confirm: VS Code then opens its refactor
 * preview, while a safe fix applies when chosen, as ruff's do.
 */
final class Edits {
    private Edits() {}

    record Annotation(String id, String label, String description, boolean confirm) {}

    static WorkspaceEdit workspaceEdit(ClientCaps caps, String uri, int version, List<TextEdit> edits, Annotation a) {
        WorkspaceEdit we = new WorkspaceEdit();
        if (!caps.documentChanges()) {
            we.setChanges(Map.of(uri, edits));
            return we;
        }
        List<Either<TextEdit, org.eclipse.lsp4j.SnippetTextEdit>> list = new ArrayList<>();
        for (TextEdit e : edits) {
            TextEdit x = e;
            if (caps.changeAnnotations() && a != null) x = new AnnotatedTextEdit(e.getRange(), e.getNewText(), a.id());
            list.add(Either.forLeft(x));
        }
        TextDocumentEdit tde = new TextDocumentEdit();
        tde.setTextDocument(new VersionedTextDocumentIdentifier(uri, version));
        tde.setEdits(list);
        we.setDocumentChanges(List.of(Either.forLeft(tde)));
        if (caps.changeAnnotations() && a != null) {
            ChangeAnnotation ca = new ChangeAnnotation(a.label());
            ca.setNeedsConfirmation(a.confirm());
            ca.setDescription(a.description());
            we.setChangeAnnotations(Map.of(a.id(), ca));
        }
        return we;
    }

    /**
     * One edit turning {@code before} into {@code after}: the span between their common prefix and
     * suffix (never splitting a CRLF or a surrogate pair), or null when they are equal.
     */
    static TextEdit diff(String before, String after, Positions pos) {
        if (before.equals(after)) return null;
        int n = before.length(), m = after.length();
        int p = 0;
        while (p < n && p < m && before.charAt(p) == after.charAt(p)) p++;
        int s = 0;
        while (s < n - p && s < m - p && before.charAt(n - 1 - s) == after.charAt(m - 1 - s)) s++;
        // keep CRLF pairs and surrogate pairs whole
        while (p > 0 && (Character.isHighSurrogate(before.charAt(p - 1)) || before.charAt(p - 1) == '\r'
                && p < n && before.charAt(p) == '\n')) p--;
        while (s > 0 && (Character.isLowSurrogate(before.charAt(n - s)) || before.charAt(n - s) == '\n'
                && n - s - 1 >= 0 && before.charAt(n - s - 1) == '\r')) s--;
        Range r = new Range(at(before, p, pos), at(before, n - s, pos));
        return new TextEdit(r, after.substring(p, m - s));
    }

    /** The LSP position of a string offset in {@code text}; LF, CRLF and lone CR end lines. */
    static org.eclipse.lsp4j.Position at(String text, int offset, Positions pos) {
        int line = 0, lineStart = 0;
        for (int i = 0; i < offset; i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n')) {
                line++;
                lineStart = i + 1;
            }
        }
        return pos.fromUtf16(line, offset - lineStart);
    }
}
