package dev.graphmend.lsp;

import java.util.concurrent.CompletableFuture;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;

/** {@code textDocument/hover} (docs/lsp.md, "Hover"): {@link Hovers} answers from the latest analysed version. */
final class HoverHandler {
    private final Session session;
    private final AnalysisScheduler scheduler;

    HoverHandler(Session session, AnalysisScheduler scheduler) {
        this.session = session;
        this.scheduler = scheduler;
    }

    CompletableFuture<Hover> hover(HoverParams params) {
        Position p = params.getPosition();
        if (p == null || Requests.negative(p)) return Requests.failed(ResponseErrorCode.InvalidParams, "hover: the position must not be negative");
        OpenDocument e = session.docs.get(params.getTextDocument().getUri());
        if (e == null) return CompletableFuture.completedFuture(null);
        return scheduler.analysisOf(e).thenApply(a -> Hovers.of(a, p, session.caps));
    }
}
