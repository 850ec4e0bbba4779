package dev.graphmend.lsp;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.graphmend.ir.document.PythonDocument;
import dev.graphmend.ir.document.TextChange;
import dev.graphmend.ir.document.UniIR;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.CodeActionOptions;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.ConfigurationItem;
import org.eclipse.lsp4j.ConfigurationParams;
import org.eclipse.lsp4j.DiagnosticRegistrationOptions;
import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.DidChangeWatchedFilesParams;
import org.eclipse.lsp4j.DidChangeWatchedFilesRegistrationOptions;
import org.eclipse.lsp4j.DidChangeWorkspaceFoldersParams;
import org.eclipse.lsp4j.DidCloseTextDocumentParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.DidSaveTextDocumentParams;
import org.eclipse.lsp4j.DocumentDiagnosticParams;
import org.eclipse.lsp4j.DocumentDiagnosticReport;
import org.eclipse.lsp4j.ExecuteCommandOptions;
import org.eclipse.lsp4j.ExecuteCommandParams;
import org.eclipse.lsp4j.FileChangeType;
import org.eclipse.lsp4j.FileEvent;
import org.eclipse.lsp4j.FileSystemWatcher;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.ProgressParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.Registration;
import org.eclipse.lsp4j.RegistrationParams;
import org.eclipse.lsp4j.RelatedFullDocumentDiagnosticReport;
import org.eclipse.lsp4j.RelatedUnchangedDocumentDiagnosticReport;
import org.eclipse.lsp4j.ServerCapabilities;
import org.eclipse.lsp4j.ServerInfo;
import org.eclipse.lsp4j.SetTraceParams;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.TextDocumentSyncKind;
import org.eclipse.lsp4j.TextDocumentSyncOptions;
import org.eclipse.lsp4j.WorkDoneProgressBegin;
import org.eclipse.lsp4j.WorkDoneProgressCreateParams;
import org.eclipse.lsp4j.WorkDoneProgressEnd;
import org.eclipse.lsp4j.WorkDoneProgressReport;
import org.eclipse.lsp4j.WorkspaceFolder;
import org.eclipse.lsp4j.WorkspaceFoldersOptions;
import org.eclipse.lsp4j.WorkspaceServerCapabilities;
import org.eclipse.lsp4j.jsonrpc.CompletableFutures;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageClientAware;
import org.eclipse.lsp4j.services.LanguageServer;
import org.eclipse.lsp4j.services.TextDocumentService;
import org.eclipse.lsp4j.services.WorkspaceService;

/**
 * The GraphMend language server (docs/lsp.md). It holds documents and translates: text
 * changes go into the incremental document model, the engine analyses a version off the message
 * thread after a short debounce, and its diagnostics and fixes come back as LSP diagnostics, code
 * actions, hovers and workspace edits. See docs/lsp.md for the behaviour in full.
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
     * change the other open documents, which may call into the changed one, are analysed again;
     * longer, so that typing does not re-analyse every open file at every keystroke.
     * {@code warmUp}: analyse a bundled model file a few times at start-up (see {@link #warmUp}).
     */
    public record Options(long debounceMs, long othersDelayMs, boolean warmUp) {
        public Options(long debounceMs) { this(debounceMs, Math.max(2 * debounceMs, 300), false); }
        public static Options defaults() { return new Options(0, 300, true); }
    }

    private final Engine engine;
    private final Options options;
    private final Log log;
    private final CodeActions codeActions;
    private final Settings settings = new Settings();
    private final WorkspaceIndex index = new WorkspaceIndex();
    private final Map<String, DocEntry> docs = new ConcurrentHashMap<>();
    private final java.util.concurrent.ScheduledThreadPoolExecutor analysis = analysisExecutor();
    private final ExecutorService work = Executors.newFixedThreadPool(2, daemon("graphmend-work"));
    private final ExecutorService indexer = Executors.newSingleThreadExecutor(daemon("graphmend-index"));
    private final Set<String> reportedConfigErrors = ConcurrentHashMap.newKeySet();
    private final WorkspaceIndexing indexing;
    private final CompletableFuture<Integer> exited = new CompletableFuture<>();
    private final TextDocs textDocs = new TextDocs();
    private final Workspace workspace = new Workspace();

    private volatile LanguageClient client;
    private volatile ClientCaps caps = ClientCaps.of(null);
    private volatile List<Path> folders = List.of();
    private volatile boolean shutdown;
    /** Builds each version's project from the last one (the engine's front door for a long-lived caller). */
    private final dev.graphmend.passes.AnalysisHost projects = new dev.graphmend.passes.AnalysisHost();
    private volatile CompletableFuture<Void> indexed = new CompletableFuture<>();

    /** One open document: its latest snapshot, the analysis task and who waits for its result. */
    private static final class DocEntry {
        final String uri;
        Snapshot snap;
        long generation;
        Future<?> task;
        CompletableFuture<Analysis> next = new CompletableFuture<>();
        /** What the previous version's analysis found per function; used by the analysis thread only. */
        final dev.graphmend.passes.AnalysisMemo memo = new dev.graphmend.passes.AnalysisMemo();
        Analysis last;
        long lastGeneration = -1;
        boolean closed;

        DocEntry(String uri, Snapshot snap) {
            this.uri = uri;
            this.snap = snap;
        }
    }

    public GraphmendServer(Engine engine, Options options, java.io.PrintStream err) {
        this.engine = engine;
        this.options = options;
        this.log = new Log(err);
        this.codeActions = new CodeActions(engine, log, () -> caps, uri -> {
            DocEntry e = docs.get(uri);
            return e == null ? null : workspaceModules(e);
        });
        // the folder's pyproject.toml decides which files are indexed, as it decides what `check` walks
        this.indexing = new WorkspaceIndexing(index, log, () -> client, () -> caps, () -> shutdown,
                this::waitWhileAnalysing, this::isOpen, root -> {
                    var files = settings.configFor(root.resolve("__init__.py")).config().files();
                    return files.root() == null ? files.withRoot(root) : files;
                });
    }

    private static java.util.concurrent.ScheduledThreadPoolExecutor analysisExecutor() {
        var e = new java.util.concurrent.ScheduledThreadPoolExecutor(1, daemon("graphmend-analysis"));
        e.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        e.setRemoveOnCancelPolicy(true);
        return e;
    }

    private static ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public void connect(LanguageClient c) {
        client = c;
        log.connect(c);
    }

    /** Completes with the process exit code when {@code exit} arrives (0 after shutdown, else 1). */
    public CompletableFuture<Integer> onExit() { return exited; }

    /** The exit code the process should have now: 0 after {@code shutdown}, else 1. */
    public int exitCode() { return shutdown ? 0 : 1; }

    /** Completes when the first workspace indexing has finished (for tests). */
    CompletableFuture<Void> indexed() { return indexed; }

    // ---------------------------------------------------------------- lifecycle

    @Override
    public CompletableFuture<InitializeResult> initialize(InitializeParams params) {
        caps = ClientCaps.of(params.getCapabilities());
        List<Path> roots = new ArrayList<>();
        if (params.getWorkspaceFolders() != null) {
            for (WorkspaceFolder f : params.getWorkspaceFolders()) {
                Path p = filePath(f.getUri());
                if (p != null) roots.add(p);
            }
        } else if (params.getRootUri() != null) {
            Path p = filePath(params.getRootUri());
            if (p != null) roots.add(p);
        }
        folders = List.copyOf(roots);
        settings.setInitializationOptions(params.getInitializationOptions());

        ServerCapabilities sc = new ServerCapabilities();
        sc.setPositionEncoding(caps.encoding().id);
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
        log.info("initialize: position encoding " + caps.encoding().id + ", workspace folders " + folders
                + (caps.pullDiagnostics() ? ", client pulls diagnostics" : ", diagnostics pushed"));
        return CompletableFuture.completedFuture(new InitializeResult(sc, new ServerInfo("graphmend", version())));
    }

    @Override
    public void initialized(InitializedParams params) {
        ClientCaps c = caps;
        if (c.watchedFilesDynamic()) {
            List<FileSystemWatcher> watchers = List.of(
                    new FileSystemWatcher(Either.forLeft("**/*.py")),
                    new FileSystemWatcher(Either.forLeft("**/pyproject.toml")));
            client.registerCapability(new RegistrationParams(List.of(new Registration("graphmend-watch",
                    "workspace/didChangeWatchedFiles", new DidChangeWatchedFilesRegistrationOptions(watchers)))))
                    .exceptionally(e -> {
                        log.warn("the client refused to watch files: " + e.getMessage());
                        return null;
                    });
        }
        if (c.configuration()) fetchConfiguration();
        startIndexing();
    }

    @Override
    public CompletableFuture<Object> shutdown() {
        shutdown = true;
        for (DocEntry e : docs.values()) {
            synchronized (e) {
                if (e.task != null) e.task.cancel(false);
            }
        }
        // no interrupts: a thread interrupted while it writes to an interruptible channel closes it
        analysis.shutdown();
        indexer.shutdown();
        work.shutdown();
        log.info("shutdown");
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void exit() {
        int code = exitCode();
        log.info("exit (" + code + ")");
        analysis.shutdown();
        indexer.shutdown();
        work.shutdown();
        exited.complete(code);
    }

    @Override
    public void setTrace(SetTraceParams params) {
        log.setTrace(params == null ? null : params.getValue());
    }

    @Override
    public TextDocumentService getTextDocumentService() { return textDocs; }

    @Override
    public WorkspaceService getWorkspaceService() { return workspace; }

    // ---------------------------------------------------------------- documents

    private final class TextDocs implements TextDocumentService {
        @Override
        public void didOpen(DidOpenTextDocumentParams params) {
            if (shutdown) return;
            var td = params.getTextDocument();
            Path path = documentPath(td.getUri());
            if (path == null) {
                log.warn("didOpen: cannot use URI " + td.getUri());
                return;
            }
            String text = td.getText() == null ? "" : td.getText();
            Snapshot s = new Snapshot(td.getUri(), path, td.getVersion(), UniIR.of(PythonDocument.open(text, td.getVersion())));
            DocEntry old = docs.put(td.getUri(), new DocEntry(td.getUri(), s));
            if (old != null) cancel(old);
            schedule(docs.get(td.getUri()), 0);
            scheduleOthers(td.getUri());
        }

        @Override
        public void didChange(DidChangeTextDocumentParams params) {
            if (shutdown) return;
            String uri = params.getTextDocument().getUri();
            DocEntry e = docs.get(uri);
            if (e == null) {
                log.warn("didChange for a document that is not open: " + uri);
                return;
            }
            Integer v = params.getTextDocument().getVersion();
            synchronized (e) {
                Snapshot cur = e.snap;
                int version = v == null ? cur.version + 1 : v;
                if (version <= cur.version) {
                    log.warn("didChange: version " + version + " of " + uri + " is not newer than " + cur.version
                            + "; applying the change anyway");
                }
                PythonDocument doc = cur.doc();
                for (TextDocumentContentChangeEvent c : params.getContentChanges()) {
                    String text = c.getText() == null ? "" : c.getText();
                    if (c.getRange() == null) {
                        doc = doc.apply(TextChange.replaceAll(text), version);
                    } else {
                        Positions pos = new Positions(doc.source().lines(), caps.encoding());
                        TextChange.Position start = pos.utf16(c.getRange().getStart());
                        TextChange.Position end = pos.utf16(c.getRange().getEnd());
                        doc = doc.apply(new TextChange(new TextChange.Range(start, end), text), version);
                    }
                }
                if (doc == cur.doc()) doc = doc.apply(List.of(), version);
                e.snap = cur.next(version, cur.ir.next(doc));
            }
            schedule(e, options.debounceMs());
            scheduleOthers(uri);
        }

        @Override
        public void didClose(DidCloseTextDocumentParams params) {
            String uri = params.getTextDocument().getUri();
            DocEntry e = docs.remove(uri);
            if (e == null) return;
            cancel(e);
            LanguageClient c = client;
            if (c != null) c.publishDiagnostics(new PublishDiagnosticsParams(uri, List.of()));
            Path p = e.snap.path;
            if (underFolders(p)) indexer.execute(() -> {
                index.update(p);
                scheduleAll(options.debounceMs());
            });
            else scheduleAll(options.debounceMs());
        }

        @Override
        public void didSave(DidSaveTextDocumentParams params) {
            // the editor's text is what is analysed; saving changes nothing
        }

        @Override
        public CompletableFuture<DocumentDiagnosticReport> diagnostic(DocumentDiagnosticParams params) {
            DocEntry e = docs.get(params.getTextDocument().getUri());
            if (e == null) return failed(ResponseErrorCode.InvalidParams, "document not open: " + params.getTextDocument().getUri());
            String previous = params.getPreviousResultId();
            return analysisOf(e).thenApply(a -> {
                if (previous != null && previous.equals(a.resultId())) {
                    return new DocumentDiagnosticReport(new RelatedUnchangedDocumentDiagnosticReport(a.resultId()));
                }
                RelatedFullDocumentDiagnosticReport full = new RelatedFullDocumentDiagnosticReport(a.lsp());
                full.setResultId(a.resultId());
                return new DocumentDiagnosticReport(full);
            });
        }

        @Override
        public CompletableFuture<List<Either<Command, CodeAction>>> codeAction(CodeActionParams params) {
            Range r = params.getRange();
            if (r == null || r.getStart() == null || r.getEnd() == null || negative(r.getStart()) || negative(r.getEnd())) {
                return failed(ResponseErrorCode.InvalidParams, "codeAction: the range must have non-negative positions");
            }
            DocEntry e = docs.get(params.getTextDocument().getUri());
            if (e == null) return CompletableFuture.completedFuture(List.of());
            return analysisOf(e).thenApplyAsync(a -> codeActions.actions(a, params), work);
        }

        @Override
        public CompletableFuture<CodeAction> resolveCodeAction(CodeAction action) {
            JsonObject data = action.getData() instanceof JsonElement && ((JsonElement) action.getData()).isJsonObject()
                    ? ((JsonElement) action.getData()).getAsJsonObject() : null;
            if (data == null || !data.has("uri") || !data.has("version") || !data.has("kind")) {
                return failed(ResponseErrorCode.InvalidParams, "codeAction/resolve: this action has no GraphMend data");
            }
            String uri = data.get("uri").getAsString();
            int version = data.get("version").getAsInt();
            DocEntry e = docs.get(uri);
            if (e == null) return failed(ResponseErrorCode.InvalidParams, "document not open: " + uri);
            return analysisOf(e).thenApplyAsync(a -> {
                if (a.snapshot().version != version) {
                    throw new ResponseErrorException(new ResponseError(ResponseErrorCode.ContentModified,
                            "the document changed (version " + version + " is stale, now " + a.snapshot().version
                                    + "); ask for code actions again", null));
                }
                action.setEdit(codeActions.editFor(a, data));
                return action;
            }, work);
        }

        @Override
        public CompletableFuture<Hover> hover(HoverParams params) {
            Position p = params.getPosition();
            if (p == null || negative(p)) return failed(ResponseErrorCode.InvalidParams, "hover: the position must not be negative");
            DocEntry e = docs.get(params.getTextDocument().getUri());
            if (e == null) return CompletableFuture.completedFuture(null);
            return analysisOf(e).thenApply(a -> Hovers.of(a, p, caps));
        }
    }

    // ---------------------------------------------------------------- workspace

    private final class Workspace implements WorkspaceService {
        @Override
        public void didChangeConfiguration(DidChangeConfigurationParams params) {
            if (caps.configuration()) {
                fetchConfiguration();
            } else {
                settings.setEditorSettings(params == null ? null : params.getSettings());
                configChanged();
            }
        }

        @Override
        public void didChangeWatchedFiles(DidChangeWatchedFilesParams params) {
            boolean config = false;
            List<FileEvent> py = new ArrayList<>();
            for (FileEvent ev : params.getChanges()) {
                Path p = filePath(ev.getUri());
                if (p == null) continue;
                String name = p.getFileName() == null ? "" : p.getFileName().toString();
                if (name.equals("pyproject.toml")) config = true;
                else if (name.endsWith(".py")) py.add(ev);
            }
            boolean reconfigure = config;
            indexer.execute(() -> {
                for (FileEvent ev : py) {
                    Path p = filePath(ev.getUri());
                    if (docs.containsKey(ev.getUri()) || !underFolders(p)) continue; // the editor's text wins
                    if (ev.getType() == FileChangeType.Deleted) index.remove(p);
                    else index.update(p);
                }
                if (reconfigure) configChanged();
                else if (!py.isEmpty()) scheduleAll(options.debounceMs());
            });
        }

        @Override
        public void didChangeWorkspaceFolders(DidChangeWorkspaceFoldersParams params) {
            Set<Path> set = new LinkedHashSet<>(folders);
            var ev = params.getEvent();
            if (ev != null && ev.getRemoved() != null) for (WorkspaceFolder f : ev.getRemoved()) set.remove(filePath(f.getUri()));
            if (ev != null && ev.getAdded() != null) for (WorkspaceFolder f : ev.getAdded()) {
                Path p = filePath(f.getUri());
                if (p != null) set.add(p);
            }
            folders = List.copyOf(set);
            startIndexing();
        }

        @Override
        public CompletableFuture<Object> executeCommand(ExecuteCommandParams params) {
            if (!FIX_ALL_COMMAND.equals(params.getCommand())) {
                return failed(ResponseErrorCode.InvalidParams, "unknown command: " + params.getCommand());
            }
            List<Object> args = params.getArguments();
            JsonObject arg = args != null && args.size() == 1 && args.get(0) instanceof JsonElement
                    && ((JsonElement) args.get(0)).isJsonObject() ? ((JsonElement) args.get(0)).getAsJsonObject() : null;
            if (arg == null || !arg.has("uri") || !arg.has("version") || !arg.get("uri").isJsonPrimitive()
                    || !arg.get("version").isJsonPrimitive() || !arg.get("version").getAsJsonPrimitive().isNumber()) {
                return failed(ResponseErrorCode.InvalidParams, FIX_ALL_COMMAND + " takes one argument {uri, version}");
            }
            String uri = arg.get("uri").getAsString();
            int version = arg.get("version").getAsInt();
            DocEntry e = docs.get(uri);
            if (e == null) return failed(ResponseErrorCode.InvalidParams, "document not open: " + uri);
            Snapshot s;
            synchronized (e) {
                s = e.snap;
            }
            if (s.version != version) {
                return failed(ResponseErrorCode.ContentModified, "stale version " + version + " of " + uri
                        + " (the document is at version " + s.version + ")");
            }
            if (!caps.applyEdit()) {
                return failed(ResponseErrorCode.RequestFailed, "the client cannot apply workspace edits (workspace.applyEdit)");
            }
            CompletableFuture<Object> result = CompletableFutures.computeAsync(work, cancel -> {
                Analysis a = analysisOf(e).join();
                cancel.checkCanceled();
                if (a.snapshot().version != version) {
                    throw new ResponseErrorException(new ResponseError(ResponseErrorCode.ContentModified,
                            "the document changed while fixing; run the command again", null));
                }
                return codeActions.fixAllEdit(a);
            }).thenCompose(fx -> {
                JsonObject out = new JsonObject();
                CodeActions.FixAllEdit f = (CodeActions.FixAllEdit) fx;
                out.addProperty("fixes", f == null ? 0 : f.result().applied().size());
                if (f == null) {
                    out.addProperty("applied", false);
                    out.addProperty("reason", "nothing to fix");
                    return CompletableFuture.completedFuture(out);
                }
                return client.applyEdit(new org.eclipse.lsp4j.ApplyWorkspaceEditParams(f.edit(), "GraphMend: fix all"))
                        .thenApply(resp -> {
                            out.addProperty("applied", resp.isApplied());
                            if (resp.getFailureReason() != null) out.addProperty("reason", resp.getFailureReason());
                            return out;
                        });
            });
            return result;
        }
    }

    // ---------------------------------------------------------------- analysis scheduling

    private void schedule(DocEntry e, long delayMs) {
        if (shutdown || e == null) return;
        synchronized (e) {
            if (e.closed) return;
            long gen = ++e.generation;
            Snapshot s = e.snap;
            if (e.task != null) e.task.cancel(false);
            if (e.next.isDone()) e.next = new CompletableFuture<>();
            try {
                e.task = analysis.schedule(() -> analyse(e, s, gen), delayMs, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException ex) {
                // shutting down
            }
        }
    }

    /** Re-analyses the other open documents: they may call into the one that changed. */
    private void scheduleOthers(String uri) {
        for (DocEntry o : docs.values()) if (!o.uri.equals(uri)) schedule(o, options.othersDelayMs());
    }

    private void scheduleAll(long delayMs) {
        for (DocEntry o : docs.values()) schedule(o, delayMs);
    }

    private void cancel(DocEntry e) {
        synchronized (e) {
            e.closed = true;
            if (e.task != null) e.task.cancel(false);
            if (!e.next.isDone()) {
                e.next.completeExceptionally(new ResponseErrorException(new ResponseError(ResponseErrorCode.ContentModified,
                        "the document was closed", null)));
            }
        }
    }

    private boolean current(DocEntry e, long gen) {
        synchronized (e) {
            return !e.closed && e.generation == gen;
        }
    }

    /** The analysis of the document's latest version: at once when known, else when the pending one finishes. */
    private CompletableFuture<Analysis> analysisOf(DocEntry e) {
        synchronized (e) {
            if (e.last != null && e.lastGeneration == e.generation) return CompletableFuture.completedFuture(e.last);
            if (e.task == null || e.task.isDone()) schedule(e, 0);
            CompletableFuture<Analysis> f = e.next;
            // a waiter's cancellation must not cancel the shared future
            return f.thenApply(a -> a);
        }
    }

    private void analyse(DocEntry e, Snapshot s, long gen) {
        if (!current(e, gen)) return;
        long t0 = System.nanoTime();
        try {
            Settings.Resolved cfg = settings.configFor(s.path);
            for (String err : cfg.errors()) reportConfigError(err);
            for (String w : cfg.warnings()) reportConfigWarning(w);
            List<SourceModule> modules = workspaceModules(e);
            long tConfig = System.nanoTime();
            SourceModule mine = s.module();
            modules.add(mine);
            long tModule = System.nanoTime();
            Project project = projects.project(modules, cfg.config());
            long tProject = System.nanoTime();
            dev.graphmend.passes.Findings found = engine.analyze(project, mine, e.memo);
            long tEngine = System.nanoTime();
            for (String err : found.internalErrors()) log.error(err + " (the rest was analysed; please report this)");
            if (!current(e, gen)) return; // a newer version is on its way: drop this result
            // a document the project's exclude keys (or default excludes) leave out gets no diagnostics, as in ruff's server
            List<Diagnostic> list = s.path != null && cfg.config().files().excludes(s.path) ? List.of()
                    : found.getOrDefault(mine, List.of());
            // (a clean file needs no line index: building one scans the whole text)
            List<org.eclipse.lsp4j.Diagnostic> lsp = list.isEmpty() ? List.of()
                    : DiagnosticMapper.toLsp(list, s.positions(caps.encoding()));
            Analysis a = new Analysis(s, cfg.config(), list, lsp, found);
            CompletableFuture<Analysis> waiting;
            synchronized (e) {
                if (e.closed || e.generation != gen) return;
                e.last = a;
                e.lastGeneration = gen;
                waiting = e.next;
            }
            long tMapped = System.nanoTime();
            LanguageClient c = client;
            if (c != null && !caps.pullDiagnostics()) c.publishDiagnostics(new PublishDiagnosticsParams(s.uri, lsp, s.version));
            waiting.complete(a);
            // the trace goes out after the diagnostics, which the user waits for
            long ms = (tMapped - t0) / 1_000_000;
            log.trace("analysed " + s.uri + " v" + s.version + ": " + list.size() + " diagnostics in " + ms + " ms",
                    modules.size() + " modules in the project (" + project.keptClasses() + " of " + project.classes().size()
                            + " classes kept); functions: " + e.memo.reused() + " reused, "
                            + e.memo.analysed() + " analysed (" + e.memo.lastMode() + "), calls of " + e.memo.followsReused() + " followed from the memo; ms: queued " + millis(s.createdNanos, t0) + ", configuration "
                            + millis(t0, tConfig) + ", symbols and names " + millis(tConfig, tModule) + ", project "
                            + millis(tModule, tProject) + ", engine " + millis(tProject, tEngine) + ", mapping "
                            + millis(tEngine, tMapped) + ", publishing " + millis(tMapped, System.nanoTime()));
        } catch (Throwable t) {
            log.error("analysis of " + s.uri + " failed: " + t);
            CompletableFuture<Analysis> waiting;
            synchronized (e) {
                if (e.generation != gen) return;
                waiting = e.next;
            }
            waiting.completeExceptionally(new ResponseErrorException(new ResponseError(ResponseErrorCode.InternalError,
                    "analysis failed: " + t, null)));
        }
    }

    private static String millis(long from, long to) {
        return String.format(java.util.Locale.ROOT, "%.2f", (to - from) / 1e6);
    }

    /**
     * The project around a document: the index's modules, then the open documents' (their editor
     * text stands in for their files), without {@code except}'s (null: all of them).
     */
    private List<SourceModule> workspaceModules(DocEntry except) {
        Set<Path> open = new HashSet<>();
        List<SourceModule> out = new ArrayList<>();
        for (DocEntry o : docs.values()) {
            Snapshot s;
            synchronized (o) {
                s = o.snap;
            }
            open.add(s.path);
            if (except == null || o != except && !s.path.equals(except.snap.path)) out.add(s.module());
        }
        out.addAll(0, index.modulesExcept(open));
        return out;
    }

    private void reportConfigError(String err) {
        if (!reportedConfigErrors.add(err)) return;
        log.error("configuration: " + err + " (this layer is ignored)");
        LanguageClient c = client;
        if (c != null) c.showMessage(new MessageParams(MessageType.Warning, "GraphMend configuration: " + err));
    }

    /** An unknown key: the rest of its table applies (docs/lsp.md, "Configuration"). */
    private void reportConfigWarning(String w) {
        if (!reportedConfigErrors.add(w)) return;
        log.warn("configuration: " + w);
        LanguageClient c = client;
        if (c != null) c.showMessage(new MessageParams(MessageType.Warning, "GraphMend configuration: " + w));
    }

    private void configChanged() {
        reportedConfigErrors.clear();
        settings.forgetFiles();
        scheduleAll(0);
        LanguageClient c = client;
        if (c != null && caps.pullDiagnostics() && caps.diagnosticRefresh()) {
            // pull clients ask again once the new results are there
            CompletableFuture.runAsync(() -> {
                for (DocEntry e : docs.values()) {
                    try {
                        analysisOf(e).get(30, TimeUnit.SECONDS);
                    } catch (Exception ex) {
                        // closed or failed: nothing to wait for
                    }
                }
                c.refreshDiagnostics();
            }, work);
        }
    }

    private void fetchConfiguration() {
        LanguageClient c = client;
        if (c == null) return;
        ConfigurationItem item = new ConfigurationItem();
        item.setSection("graphmend");
        c.configuration(new ConfigurationParams(List.of(item))).whenComplete((values, err) -> {
            if (err != null) {
                log.warn("workspace/configuration failed: " + err.getMessage());
                return;
            }
            settings.setEditorSettings(values == null || values.isEmpty() ? null : values.get(0));
            configChanged();
        });
    }

    // ---------------------------------------------------------------- workspace indexing

    private void startIndexing() {
        List<Path> roots = folders;
        CompletableFuture<Void> done = indexed.isDone() ? new CompletableFuture<>() : indexed;
        indexed = done;
        try {
            indexer.execute(() -> {
                try {
                    if (options.warmUp()) indexing.warmUp();
                    if (indexing.run(roots, () -> prepareProject(roots))) scheduleAll(0);
                } finally {
                    done.complete(null);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException ex) {
            done.complete(null);
        }
    }

    /**
     * Builds the project of the whole index once and infers its facts (each class's attributes,
     * which classes are submodules, which hold which, who imports whom, every function): the first
     * analysis after indexing would otherwise do it for all of a package's classes while the user
     * waits for the file they opened. Later projects are built from this one ({@link dev.graphmend.passes.AnalysisHost}).
     */
    private void prepareProject(List<Path> roots) {
        if (roots.isEmpty()) return;
        projects.project(workspaceModules(null), settings.configFor(roots.get(0).resolve("__init__.py")).config())
                .inferProjectFacts();
    }

    /** Lets pending analyses of open documents run before the indexer takes the CPU again (at most 2 s). */
    private void waitWhileAnalysing() {
        long until = System.nanoTime() + 2_000_000_000L;
        while (!shutdown && (analysis.getActiveCount() > 0 || hasDueTask()) && System.nanoTime() < until) {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private boolean hasDueTask() {
        for (Runnable r : analysis.getQueue()) {
            if (r instanceof java.util.concurrent.Delayed d && d.getDelay(TimeUnit.MILLISECONDS) <= 0) return true;
        }
        return false;
    }

    private boolean isOpen(Path p) {
        for (DocEntry e : docs.values()) if (p.equals(e.snap.path)) return true;
        return false;
    }

    private boolean underFolders(Path p) {
        if (p == null) return false;
        for (Path f : folders) if (p.startsWith(f)) return true;
        return false;
    }

    // ---------------------------------------------------------------- helpers

    private static boolean negative(Position p) {
        return p.getLine() < 0 || p.getCharacter() < 0;
    }

    static <T> CompletableFuture<T> failed(int code, String message) {
        return CompletableFuture.failedFuture(new ResponseErrorException(new ResponseError(code, message, null)));
    }

    static <T> CompletableFuture<T> failed(ResponseErrorCode code, String message) {
        return failed(code.getValue(), message);
    }

    /** A file URI's path; null for other schemes or malformed URIs. */
    static Path filePath(String uri) {
        if (uri == null) return null;
        try {
            URI u = URI.create(uri);
            if (!"file".equalsIgnoreCase(u.getScheme())) return null;
            return Path.of(u).toAbsolutePath().normalize();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The path a document stands for: its file, or a made-up one for untitled and other schemes. */
    static Path documentPath(String uri) {
        Path p = filePath(uri);
        if (p != null) return p;
        if (uri == null || uri.isEmpty()) return null;
        String name = uri.replaceAll("[^A-Za-z0-9_]", "_");
        return Path.of(System.getProperty("java.io.tmpdir"), "graphmend-untitled", name + ".py").toAbsolutePath();
    }

    static String version() {
        String v = GraphmendServer.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
