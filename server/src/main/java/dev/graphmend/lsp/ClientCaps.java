package dev.graphmend.lsp;

import java.util.List;
import java.util.Optional;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.MarkupKind;

/** What the client said it can do, read once from {@code initialize}; every capability may be absent. */
record ClientCaps(Positions.Encoding encoding, boolean pullDiagnostics, boolean diagnosticRefresh,
                  boolean workDoneProgress, boolean configuration, boolean watchedFilesDynamic,
                  boolean resolveEdit, boolean changeAnnotations, boolean documentChanges, boolean markdownHover,
                  boolean applyEdit) {

    static ClientCaps of(ClientCapabilities c) {
        if (c == null) c = new ClientCapabilities();
        var general = Optional.ofNullable(c.getGeneral());
        var td = Optional.ofNullable(c.getTextDocument());
        var ws = Optional.ofNullable(c.getWorkspace());
        var win = Optional.ofNullable(c.getWindow());
        Positions.Encoding enc = Positions.Encoding.negotiate(general.map(g -> g.getPositionEncodings()).orElse(null));
        boolean pull = td.map(t -> t.getDiagnostic()).isPresent();
        boolean refresh = ws.map(w -> w.getDiagnostics()).map(d -> d.getRefreshSupport()).orElse(false);
        boolean progress = win.map(w -> w.getWorkDoneProgress()).orElse(false);
        boolean config = ws.map(w -> w.getConfiguration()).orElse(false);
        boolean watched = ws.map(w -> w.getDidChangeWatchedFiles()).map(w -> w.getDynamicRegistration()).orElse(false);
        boolean resolve = td.map(t -> t.getCodeAction()).map(a -> a.getResolveSupport()).map(r -> r.getProperties())
                .map(p -> p.contains("edit")).orElse(false);
        var wsEdit = ws.map(w -> w.getWorkspaceEdit());
        boolean annotations = wsEdit.map(e -> e.getChangeAnnotationSupport()).isPresent();
        boolean docChanges = wsEdit.map(e -> e.getDocumentChanges()).orElse(false);
        List<String> formats = td.map(t -> t.getHover()).map(h -> h.getContentFormat()).orElse(List.of());
        boolean markdown = formats == null || formats.isEmpty() || formats.contains(MarkupKind.MARKDOWN);
        boolean apply = ws.map(w -> w.getApplyEdit()).orElse(false);
        return new ClientCaps(enc, pull, refresh, progress, config, watched, resolve, annotations, docChanges, markdown,
                apply);
    }
}
