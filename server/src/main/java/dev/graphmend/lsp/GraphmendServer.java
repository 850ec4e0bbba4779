package dev.graphmend.lsp;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.CodeActionOptions;
import org.eclipse.lsp4j.DiagnosticRegistrationOptions;
import org.eclipse.lsp4j.DidChangeWatchedFilesRegistrationOptions;
import org.eclipse.lsp4j.ExecuteCommandOptions;
import org.eclipse.lsp4j.FileSystemWatcher;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.Registration;
import org.eclipse.lsp4j.RegistrationParams;
import org.eclipse.lsp4j.ServerCapabilities;
import org.eclipse.lsp4j.ServerInfo;
import org.eclipse.lsp4j.SetTraceParams;
import org.eclipse.lsp4j.TextDocumentSyncKind;
import org.eclipse.lsp4j.TextDocumentSyncOptions;
import org.eclipse.lsp4j.WorkspaceFolder;
import org.eclipse.lsp4j.WorkspaceFoldersOptions;
import org.eclipse.lsp4j.WorkspaceServerCapabilities;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageClientAware;
import org.eclipse.lsp4j.services.LanguageServer;
import org.eclipse.lsp4j.services.TextDocumentService;
import org.eclipse.lsp4j.services.WorkspaceService;

/**
 * The GraphMend language server (docs/lsp.md): its lifecycle and capabilities, and the wiring of
 * the handlers, one per concern: {@link DocumentSync} keeps the open documents,
 * {@link AnalysisScheduler} decides when they are analysed (the concurrency rules are there),
 * {@link PullDiagnostics}, {@link CodeActionHandlers} and {@link HoverHandler} answer from an
 * analysed version, {@link WorkspaceHandlers} and {@link ConfigurationHandler} follow the
 * workspace, and {@link WorkspaceIndexing} reads it. They share one {@link Session}.
 */
public final class GraphmendServer implements LanguageServer, LanguageClientAware {
    public static final String FIX_ALL_COMMAND = "graphmend.fixAll";
    public static final String FIX_ALL_KIND = "source.fixAll.graphmend";
    static final String DIAGNOSTIC_ID = "graphmend";

    /**
     * Tunables. {@code debounceMs}: how long after a change of a document its analysis starts.
     * The default is 0: the analysis of an edit starts at once, and edits that arrive while one
     * runs are coalesced (the queued analysis is replaced by the newest version's; a running one
     * finishes, and its stale result is dropped), which keeps an isolated keystroke's latency at
     * the analysis time, as ruff and rust-analyzer do. {@code othersDelayMs}: how long after a
     * change the other open documents, which may call into the changed one, are analysed again.
     * {@code warmUp}: analyse a bundled model file a few times at start-up (see {@link WorkspaceIndexing}).
     * {@code environment}: the process environment, where the project's torch may be installed
     * ({@code VIRTUAL_ENV}, {@code GRAPHMEND_PYTHON_PATH}; docs/configuration.md).
     */
    public record Options(long debounceMs, long othersDelayMs, boolean warmUp, java.util.Map<String, String> environment) {
        /** For tests: no warm-up, and no process environment read (the project's own files still say its torch). */
        public Options(long debounceMs) { this(debounceMs, Math.max(2 * debounceMs, 300), false, java.util.Map.of()); }
        public static Options defaults() { return new Options(0, 300, true, System.getenv()); }
    }

    private final Session session;
    private final AnalysisScheduler scheduler;
    private final WorkspaceIndexing indexing;
    private final ConfigurationHandler configuration;
    private final TorchStatus torchStatus;
    private final TextDocumentHandlers textDocuments;
    private final WorkspaceHandlers workspace;
    private final CompletableFuture<Integer> exited = new CompletableFuture<>();

    public GraphmendServer(Engine engine, Options options, java.io.PrintStream err) {
        session = new Session(new Log(err), options.environment());
        scheduler = new AnalysisScheduler(session, engine,
                new AnalysisScheduler.Delays(options.debounceMs(), options.othersDelayMs()), new dev.graphmend.passes.AnalysisHost());
        indexing = new WorkspaceIndexing(session, scheduler, options.warmUp());
        torchStatus = new TorchStatus(session);
        configuration = new ConfigurationHandler(session, scheduler, torchStatus);
        CodeActions actions = new CodeActions(engine, session.log, () -> session.caps, uri -> {
            OpenDocument e = session.docs.get(uri);
            return e == null ? null : session.docs.workspaceModules(session.index, e);
        });
        CodeActionHandlers codeActions = new CodeActionHandlers(session, scheduler, actions);
        textDocuments = new TextDocumentHandlers(new DocumentSync(session, scheduler, indexing),
                new PullDiagnostics(session, scheduler), codeActions, new HoverHandler(session, scheduler));
        workspace = new WorkspaceHandlers(session, scheduler, indexing, configuration, torchStatus, codeActions);
    }

    @Override
    public void connect(LanguageClient c) {
        session.client = c;
        session.log.connect(c);
    }

    /** Completes with the process exit code when {@code exit} arrives (0 after shutdown, else 1). */
    public CompletableFuture<Integer> onExit() { return exited; }

    /** Whether {@code shutdown} has arrived: every request after it is refused, every notification but exit dropped ({@link LspMain}). */
    public boolean isShutDown() { return session.shutdown; }

    /** The exit code the process should have now: 0 after {@code shutdown}, else 1. */
    public int exitCode() { return session.shutdown ? 0 : 1; }

    /** The open document at {@code uri}, or null (for tests). */
    OpenDocument document(String uri) { return session.docs.get(uri); }

    /** Completes when the latest workspace indexing has finished (for tests). */
    CompletableFuture<Void> indexed() { return indexing.indexed(); }

    @Override
    public CompletableFuture<InitializeResult> initialize(InitializeParams params) {
        session.caps = ClientCaps.of(params.getCapabilities());
        List<Path> roots = new ArrayList<>();
        if (params.getWorkspaceFolders() != null) {
            for (WorkspaceFolder f : params.getWorkspaceFolders()) {
                Path p = Requests.filePath(f.getUri());
                if (p != null) roots.add(p);
            }
        } else if (params.getRootUri() != null) {
            Path p = Requests.filePath(params.getRootUri());
            if (p != null) roots.add(p);
        }
        session.folders = List.copyOf(roots);
        session.settings.setInitializationOptions(params.getInitializationOptions());

        ServerCapabilities sc = new ServerCapabilities();
        sc.setPositionEncoding(session.caps.encoding().id);
        TextDocumentSyncOptions sync = new TextDocumentSyncOptions();
        sync.setOpenClose(true);
        sync.setChange(TextDocumentSyncKind.Incremental);
        // saves are announced (without the text): a client that pulls diagnostics on save only
        // (VS Code with graphmend.run = onSave) pulls when it sends didSave
        sync.setSave(new org.eclipse.lsp4j.SaveOptions(false));
        sc.setTextDocumentSync(sync);
        sc.setHoverProvider(true);
        CodeActionOptions ca = new CodeActionOptions(List.of(CodeActionKind.QuickFix, FIX_ALL_KIND));
        ca.setResolveProvider(true);
        sc.setCodeActionProvider(ca);
        sc.setExecuteCommandProvider(new ExecuteCommandOptions(List.of(FIX_ALL_COMMAND)));
        DiagnosticRegistrationOptions diag = new DiagnosticRegistrationOptions(true, false);
        diag.setIdentifier(DIAGNOSTIC_ID);
        sc.setDiagnosticProvider(diag);
        WorkspaceFoldersOptions wf = new WorkspaceFoldersOptions();
        wf.setSupported(true);
        wf.setChangeNotifications(true);
        sc.setWorkspace(new WorkspaceServerCapabilities(wf));
        session.log.info("initialize: position encoding " + session.caps.encoding().id + ", workspace folders " + session.folders
                + (session.caps.pullDiagnostics() ? ", client pulls diagnostics" : ", diagnostics pushed"));
        return CompletableFuture.completedFuture(new InitializeResult(sc, new ServerInfo("graphmend", version())));
    }

    @Override
    public void initialized(InitializedParams params) {
        ClientCaps c = session.caps;
        if (c.watchedFilesDynamic()) {
            List<FileSystemWatcher> watchers = List.of(
                    new FileSystemWatcher(Either.forLeft("**/*.py")),
                    new FileSystemWatcher(Either.forLeft("**/pyproject.toml")),
                    // where the torch version may come from: pins, and a torch installed in a venv of the workspace
                    new FileSystemWatcher(Either.forLeft("**/{uv.lock,poetry.lock,pdm.lock,requirements*.txt}")),
                    new FileSystemWatcher(Either.forLeft("**/torch-*.dist-info/METADATA")));
            session.client.registerCapability(new RegistrationParams(List.of(new Registration("graphmend-watch",
                    "workspace/didChangeWatchedFiles", new DidChangeWatchedFilesRegistrationOptions(watchers)))))
                    .exceptionally(e -> {
                        session.log.warn("the client refused to watch files: " + e.getMessage());
                        return null;
                    });
        }
        // the status waits for the editor's settings when they are to be fetched (they may name the interpreter)
        if (c.configuration()) configuration.fetch();
        else torchStatus.update();
        indexing.start();
    }

    @Override
    public CompletableFuture<Object> shutdown() {
        session.shutdown = true;
        stopThreads();
        session.log.info("shutdown");
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void exit() {
        int code = exitCode();
        session.log.info("exit (" + code + ")");
        stopThreads();
        exited.complete(code);
    }

    /** No interrupts: a thread interrupted while it writes to an interruptible channel closes it. */
    private void stopThreads() {
        scheduler.shutdown();
        indexing.shutdown();
        session.work.shutdown();
    }

    @Override
    public void setTrace(SetTraceParams params) {
        session.log.setTrace(params == null ? null : params.getValue());
    }

    @Override
    public TextDocumentService getTextDocumentService() { return textDocuments; }

    @Override
    public WorkspaceService getWorkspaceService() { return workspace; }

    static String version() {
        String v = GraphmendServer.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
