package dev.graphmend.lsp;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.eclipse.lsp4j.ApplyWorkspaceEditParams;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.jsonrpc.CompletableFutures;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;

/**
 * {@code textDocument/codeAction}, {@code codeAction/resolve} and the {@code graphmend.fixAll}
 * command (docs/lsp.md, "Code actions"): each checks its request, waits for the analysis of the
 * document's latest version, refuses a stale version with {@code ContentModified}, and lets
 * {@link CodeActions} build the answer on a worker thread.
 */
final class CodeActionHandlers {
    private final Session session;
    private final AnalysisScheduler scheduler;
    private final CodeActions codeActions;

    CodeActionHandlers(Session session, AnalysisScheduler scheduler, CodeActions codeActions) {
        this.session = session;
        this.scheduler = scheduler;
        this.codeActions = codeActions;
    }

    CompletableFuture<List<Either<Command, CodeAction>>> codeAction(CodeActionParams params) {
        Range r = params.getRange();
        if (r == null || r.getStart() == null || r.getEnd() == null || Requests.negative(r.getStart()) || Requests.negative(r.getEnd())) {
            return Requests.failed(ResponseErrorCode.InvalidParams, "codeAction: the range must have non-negative positions");
        }
        OpenDocument e = session.docs.get(params.getTextDocument().getUri());
        if (e == null) return CompletableFuture.completedFuture(List.of());
        return scheduler.analysisOf(e).thenApplyAsync(a -> codeActions.actions(a, params), session.work);
    }

    /**
     * {@code codeAction/resolve}: the data is checked whole first ({@link ActionData#parse}:
     * {@code InvalidParams} saying what is wrong); a version other than the document's current one
     * is {@code ContentModified}, as LSP asks of a request on content that changed.
     */
    CompletableFuture<CodeAction> resolve(CodeAction action) {
        if (action == null) return Requests.failed(ResponseErrorCode.InvalidParams, "codeAction/resolve: the params must be a code action");
        ActionData data;
        try {
            data = ActionData.parse(action.getData());
        } catch (ResponseErrorException invalid) {
            return CompletableFuture.failedFuture(invalid);
        }
        OpenDocument e = session.docs.get(data.uri());
        if (e == null) return Requests.failed(ResponseErrorCode.InvalidParams, "codeAction/resolve: document not open: " + data.uri());
        return scheduler.analysisOf(e).thenApplyAsync(a -> {
            if (a.snapshot().version != data.version()) {
                throw Requests.error(ResponseErrorCode.ContentModified, "the document changed (version " + data.version()
                        + " is not the current one, " + a.snapshot().version + "); ask for code actions again");
            }
            action.setEdit(codeActions.editFor(a, data));
            return action;
        }, session.work);
    }

    /** {@code graphmend.fixAll {uri, version}}: applies every safe fix through {@code workspace/applyEdit}. */
    CompletableFuture<Object> fixAll(List<Object> args) {
        JsonObject arg = args != null && args.size() == 1 && args.get(0) instanceof JsonElement j && j.isJsonObject()
                ? j.getAsJsonObject() : null;
        if (arg == null || !arg.has("uri") || !arg.has("version") || !arg.get("uri").isJsonPrimitive()
                || !arg.get("version").isJsonPrimitive() || !arg.get("version").getAsJsonPrimitive().isNumber()) {
            return Requests.failed(ResponseErrorCode.InvalidParams, GraphmendServer.FIX_ALL_COMMAND + " takes one argument {uri, version}");
        }
        String uri = arg.get("uri").getAsString();
        int version = arg.get("version").getAsInt();
        OpenDocument e = session.docs.get(uri);
        if (e == null) return Requests.failed(ResponseErrorCode.InvalidParams, "document not open: " + uri);
        Snapshot s = e.snapshot();
        if (s.version != version) {
            return Requests.failed(ResponseErrorCode.ContentModified, "stale version " + version + " of " + uri
                    + " (the document is at version " + s.version + ")");
        }
        if (!session.caps.applyEdit()) {
            return Requests.failed(ResponseErrorCode.RequestFailed, "the client cannot apply workspace edits (workspace.applyEdit)");
        }
        return CompletableFutures.computeAsync(session.work, cancel -> {
            Analysis a = scheduler.analysisOf(e).join();
            cancel.checkCanceled();
            if (a.snapshot().version != version) {
                throw Requests.error(ResponseErrorCode.ContentModified, "the document changed while fixing; run the command again");
            }
            return codeActions.fixAllEdit(a);
        }).thenCompose(f -> {
            JsonObject out = new JsonObject();
            out.addProperty("fixes", f == null ? 0 : f.result().applied().size());
            if (f == null) {
                out.addProperty("applied", false);
                out.addProperty("reason", "nothing to fix");
                return CompletableFuture.completedFuture(out);
            }
            return session.client.applyEdit(new ApplyWorkspaceEditParams(f.edit(), "GraphMend: fix all"))
                    .thenApply(resp -> {
                        out.addProperty("applied", resp.isApplied());
                        if (resp.getFailureReason() != null) out.addProperty("reason", resp.getFailureReason());
                        return out;
                    });
        });
    }
}
