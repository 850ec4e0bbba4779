package dev.graphmend.lsp;

import dev.graphmend.ir.document.PythonDocument;
import dev.graphmend.ir.document.TextChange;
import dev.graphmend.ir.document.UniIR;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.DidCloseTextDocumentParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * Document sync (docs/lsp.md, "Capabilities" and "Diagnostics"): {@code didOpen}, {@code didChange} and
 * {@code didClose} keep each open document's latest {@link Snapshot} (changes go into the
 * incremental document model) and ask the scheduler to analyse it and the documents that may call
 * into it. The editor's text is what is analysed; saving changes nothing.
 */
final class DocumentSync {
    private final Session session;
    private final AnalysisScheduler scheduler;
    private final WorkspaceIndexing indexing;

    DocumentSync(Session session, AnalysisScheduler scheduler, WorkspaceIndexing indexing) {
        this.session = session;
        this.scheduler = scheduler;
        this.indexing = indexing;
    }

    void didOpen(DidOpenTextDocumentParams params) {
        if (session.shutdown) return;
        var td = params.getTextDocument();
        Path path = Requests.documentPath(td.getUri());
        if (path == null) {
            session.log.warn("didOpen: cannot use URI " + td.getUri());
            return;
        }
        String text = td.getText() == null ? "" : td.getText();
        Snapshot s = new Snapshot(td.getUri(), path, td.getVersion(), UniIR.of(PythonDocument.open(text, td.getVersion())));
        OpenDocument doc = new OpenDocument(td.getUri(), s);
        OpenDocument old = session.docs.put(doc);
        if (old != null) scheduler.close(old);
        scheduler.schedule(doc, 0);
        scheduler.scheduleOthers(td.getUri());
    }

    void didChange(DidChangeTextDocumentParams params) {
        if (session.shutdown) return;
        String uri = params.getTextDocument().getUri();
        OpenDocument e = session.docs.get(uri);
        if (e == null) {
            session.log.warn("didChange for a document that is not open: " + uri);
            return;
        }
        Integer v = params.getTextDocument().getVersion();
        long started = System.nanoTime(), allocated = Threads.allocatedBytes();
        synchronized (e) {
            Snapshot cur = e.snap;
            int version = v == null ? cur.version + 1 : v;
            if (version <= cur.version) {
                session.log.warn("didChange: version " + version + " of " + uri + " is not newer than " + cur.version
                        + "; applying the change anyway");
            }
            PythonDocument doc = cur.doc();
            for (TextDocumentContentChangeEvent c : params.getContentChanges()) {
                String text = c.getText() == null ? "" : c.getText();
                if (c.getRange() == null) {
                    doc = doc.apply(TextChange.replaceAll(text), version);
                } else {
                    Positions pos = new Positions(doc.source().lines(), session.caps.encoding());
                    TextChange.Position start = pos.utf16(c.getRange().getStart());
                    TextChange.Position end = pos.utf16(c.getRange().getEnd());
                    doc = doc.apply(new TextChange(new TextChange.Range(start, end), text), version);
                }
            }
            if (doc == cur.doc()) doc = doc.apply(List.of(), version);
            e.snap = cur.next(version, cur.ir.next(doc), started, allocated);
        }
        scheduler.changed(e);
        scheduler.scheduleOthers(uri);
    }

    /** A closed document's diagnostics are cleared; its file on disk takes its place in the index. */
    void didClose(DidCloseTextDocumentParams params) {
        String uri = params.getTextDocument().getUri();
        OpenDocument e = session.docs.remove(uri);
        if (e == null) return;
        scheduler.close(e);
        scheduler.closed(e);
        LanguageClient c = session.client;
        if (c != null) c.publishDiagnostics(new PublishDiagnosticsParams(uri, List.of()));
        Path p = e.snapshot().path;
        if (session.underFolders(p)) indexing.later(() -> {
            session.index.update(p);
            scheduler.workspaceChanged();
        });
        else scheduler.workspaceChanged();
    }
}
