package dev.graphmend.lsp;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.TextDocumentEdit;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.WorkspaceEdit;

/** Applies LSP text edits (UTF-16 positions) to a text, as an editor does. */
final class Texts {
    private Texts() {}

    static final String SAMPLE = "import torch\n"
            + "\n"
            + "\n"
            + "@torch.compile\n"
            + "def f(x):\n"
            + "    if x.sum() > 0:\n"
            + "        return x\n"
            + "    print(\"hi\")\n"
            + "    return -x\n";

    static int offset(String text, Position p) {
        int line = 0, i = 0;
        while (line < p.getLine() && i < text.length()) {
            char c = text.charAt(i++);
            if (c == '\n' || c == '\r' && (i >= text.length() || text.charAt(i) != '\n')) line++;
        }
        int end = i;
        while (end < text.length() && text.charAt(end) != '\n' && text.charAt(end) != '\r') end++;
        return Math.min(i + p.getCharacter(), end);
    }

    static String apply(String text, List<TextEdit> edits) {
        List<TextEdit> sorted = new ArrayList<>(edits);
        sorted.sort(Comparator.comparingInt((TextEdit e) -> offset(text, e.getRange().getStart())).reversed());
        String out = text;
        for (TextEdit e : sorted) {
            int s = offset(text, e.getRange().getStart()), t = offset(text, e.getRange().getEnd());
            out = out.substring(0, s) + e.getNewText() + out.substring(t);
        }
        return out;
    }

    /** The single document edit of a workspace edit. */
    static TextDocumentEdit docEdit(WorkspaceEdit we) {
        if (we.getDocumentChanges() == null || we.getDocumentChanges().size() != 1) {
            throw new AssertionError("expected one document change: " + we);
        }
        return we.getDocumentChanges().get(0).getLeft();
    }

    static List<TextEdit> edits(TextDocumentEdit e) {
        List<TextEdit> out = new ArrayList<>();
        for (var x : e.getEdits()) out.add(x.getLeft());
        return out;
    }
}
