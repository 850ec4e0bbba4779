package dev.graphmend.lsp;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.DidCloseTextDocumentParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.DidSaveTextDocumentParams;
import org.eclipse.lsp4j.DocumentDiagnosticParams;
import org.eclipse.lsp4j.DocumentDiagnosticReport;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.TextDocumentService;

/** The {@code textDocument/*} methods, each routed to the handler of its concern. */
final class TextDocumentHandlers implements TextDocumentService {
    private final DocumentSync sync;
    private final PullDiagnostics diagnostics;
    private final CodeActionHandlers codeActions;
    private final HoverHandler hover;

    TextDocumentHandlers(DocumentSync sync, PullDiagnostics diagnostics, CodeActionHandlers codeActions, HoverHandler hover) {
        this.sync = sync;
        this.diagnostics = diagnostics;
        this.codeActions = codeActions;
        this.hover = hover;
    }

    @Override
    public void didOpen(DidOpenTextDocumentParams params) { sync.didOpen(params); }

    @Override
    public void didChange(DidChangeTextDocumentParams params) { sync.didChange(params); }

    @Override
    public void didClose(DidCloseTextDocumentParams params) { sync.didClose(params); }

    /** The editor's text is what is analysed; saving changes nothing. */
    @Override
    public void didSave(DidSaveTextDocumentParams params) {}

    @Override
    public CompletableFuture<DocumentDiagnosticReport> diagnostic(DocumentDiagnosticParams params) {
        return diagnostics.diagnostic(params);
    }

    @Override
    public CompletableFuture<List<Either<Command, CodeAction>>> codeAction(CodeActionParams params) {
        return codeActions.codeAction(params);
    }

    @Override
    public CompletableFuture<CodeAction> resolveCodeAction(CodeAction action) { return codeActions.resolve(action); }

    @Override
    public CompletableFuture<Hover> hover(HoverParams params) { return hover.hover(params); }
}
