package dev.graphmend.lsp;

import java.util.concurrent.CompletableFuture;
import org.eclipse.lsp4j.DocumentDiagnosticParams;
import org.eclipse.lsp4j.DocumentDiagnosticReport;
import org.eclipse.lsp4j.RelatedFullDocumentDiagnosticReport;
import org.eclipse.lsp4j.RelatedUnchangedDocumentDiagnosticReport;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;

/**
 * {@code textDocument/diagnostic} (docs/lsp.md, "Diagnostics"): the latest version's diagnostics,
 * or "unchanged" when the client's previous result id is still the current one.
 */
final class PullDiagnostics {
    private final Session session;
    private final AnalysisScheduler scheduler;

    PullDiagnostics(Session session, AnalysisScheduler scheduler) {
        this.session = session;
        this.scheduler = scheduler;
    }

    CompletableFuture<DocumentDiagnosticReport> diagnostic(DocumentDiagnosticParams params) {
        OpenDocument e = session.docs.get(params.getTextDocument().getUri());
        if (e == null) return Requests.failed(ResponseErrorCode.InvalidParams, "document not open: " + params.getTextDocument().getUri());
        String previous = params.getPreviousResultId();
        return scheduler.analysisOf(e).thenApply(a -> {
            if (previous != null && previous.equals(a.resultId())) {
                return new DocumentDiagnosticReport(new RelatedUnchangedDocumentDiagnosticReport(a.resultId()));
            }
            RelatedFullDocumentDiagnosticReport full = new RelatedFullDocumentDiagnosticReport(a.lsp());
            full.setResultId(a.resultId());
            return new DocumentDiagnosticReport(full);
        });
    }
}
