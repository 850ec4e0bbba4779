package dev.graphmend.lsp;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.eclipse.lsp4j.*;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.jsonrpc.messages.Message;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseMessage;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageServer;

/**
 * An in-process client connected to a {@link GraphmendServer} over a pair of pipes, as an editor
 * is over stdio: every message goes through JSON-RPC framing and LSP4J's JSON on both sides.
 * The client records what the server sends; {@link #raw} writes bytes to the server directly.
 */
final class Harness implements AutoCloseable {
    static final Duration WAIT = Duration.ofSeconds(20);

    final GraphmendServer server;
    final LanguageServer remote;
    final RecordingClient client = new RecordingClient();
    final List<Message> received = new CopyOnWriteArrayList<>();
    private final OutputStream toServer;
    private final OutputStream serverOut;
    private final ExecutorService exec = Executors.newCachedThreadPool();
    final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    /** Every message as it crossed the wire, for assertions on JSON the LSP4J types drop. */
    final ByteArrayOutputStream wireBytes = new ByteArrayOutputStream();

    Harness(Engine engine) throws IOException {
        this(engine, new GraphmendServer.Options(20));
    }

    Harness(Engine engine, GraphmendServer.Options options) throws IOException {
        Pipe up = Pipe.open();
        Pipe down = Pipe.open();
        InputStream serverIn = Channels.newInputStream(up.source());
        OutputStream clientOut = Channels.newOutputStream(up.sink());
        InputStream clientIn = new java.io.FilterInputStream(Channels.newInputStream(down.source())) {
            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0) synchronized (wireBytes) { wireBytes.write(b); }
                return b;
            }

            @Override
            public int read(byte[] buf, int off, int len) throws IOException {
                int n = super.read(buf, off, len);
                if (n > 0) synchronized (wireBytes) { wireBytes.write(buf, off, n); }
                return n;
            }
        };
        OutputStream serverOut = Channels.newOutputStream(down.sink());
        toServer = clientOut;
        this.serverOut = serverOut;
        server = new GraphmendServer(engine, options, new PrintStream(stderr, true, StandardCharsets.UTF_8));
        Launcher<LanguageClient> sl = LspMain.launcher(server, serverIn, serverOut, exec);
        server.connect(sl.getRemoteProxy());
        sl.startListening();
        Launcher<LanguageServer> cl = new LSPLauncher.Builder<LanguageServer>()
                .setLocalService(client).setRemoteInterface(LanguageServer.class)
                .setInput(clientIn).setOutput(clientOut).setExecutorService(exec)
                .configureGson(b -> b.registerTypeAdapterFactory(new AnnotatedEditsAdapter()))
                .wrapMessages(c -> m -> {
                    if (m instanceof ResponseMessage) received.add(m);
                    c.consume(m);
                }).create();
        remote = cl.getRemoteProxy();
        cl.startListening();
    }

    Harness() throws IOException {
        this(Engine.DEFAULT);
    }

    /** What the server wrote, as bytes on the wire. */
    String wire() {
        synchronized (wireBytes) {
            return wireBytes.toString(StandardCharsets.UTF_8);
        }
    }

    /** Writes raw bytes to the server's input; callers send them while the client is idle (between its messages). */
    void raw(byte[] bytes) throws IOException {
        synchronized (toServer) {
            toServer.write(bytes);
            toServer.flush();
        }
    }

    void rawMessage(byte[] body) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(("Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        b.write(body);
        raw(b.toByteArray());
    }

    void rawMessage(String json) throws IOException {
        rawMessage(json.getBytes(StandardCharsets.UTF_8));
    }

    /** Waits until the server has written {@code count} occurrences of {@code text} (LSP4J's client cannot parse "id": null). */
    void awaitWire(String text, int count) throws InterruptedException {
        long end = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < end) {
            String w = wire();
            int n = 0;
            for (int i = w.indexOf(text); i >= 0; i = w.indexOf(text, i + 1)) n++;
            if (n >= count) return;
            Thread.sleep(5);
        }
        throw new AssertionError("the server never wrote " + count + " x " + text + "; wrote " + wire());
    }

    /** The first response the client received that matches, waiting for it. */
    ResponseMessage response(Predicate<ResponseMessage> p) throws InterruptedException {
        long end = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < end) {
            for (Message m : received) if (p.test((ResponseMessage) m)) return (ResponseMessage) m;
            Thread.sleep(5);
        }
        throw new AssertionError("no such response; got " + received);
    }

    // ------------------------------------------------------------ conveniences

    static ClientCapabilities caps(boolean pull, boolean resolve, boolean annotations) {
        ClientCapabilities c = new ClientCapabilities();
        TextDocumentClientCapabilities td = new TextDocumentClientCapabilities();
        if (pull) td.setDiagnostic(new DiagnosticCapabilities());
        CodeActionCapabilities ca = new CodeActionCapabilities();
        ca.setCodeActionLiteralSupport(new CodeActionLiteralSupportCapabilities(
                new CodeActionKindCapabilities(List.of("quickfix", "source.fixAll"))));
        ca.setIsPreferredSupport(true);
        ca.setDataSupport(true);
        if (resolve) ca.setResolveSupport(new CodeActionResolveSupportCapabilities(List.of("edit")));
        td.setCodeAction(ca);
        td.setHover(new HoverCapabilities(List.of(MarkupKind.MARKDOWN, MarkupKind.PLAINTEXT), false));
        c.setTextDocument(td);
        WorkspaceClientCapabilities ws = new WorkspaceClientCapabilities();
        ws.setApplyEdit(true);
        WorkspaceEditCapabilities we = new WorkspaceEditCapabilities();
        we.setDocumentChanges(true);
        if (annotations) we.setChangeAnnotationSupport(new WorkspaceEditChangeAnnotationSupportCapabilities(true));
        ws.setWorkspaceEdit(we);
        c.setWorkspace(ws);
        return c;
    }

    InitializeResult initialize(ClientCapabilities caps, Object initOptions, String... folders) throws Exception {
        InitializeParams p = new InitializeParams();
        p.setCapabilities(caps);
        p.setInitializationOptions(initOptions);
        List<WorkspaceFolder> wf = new ArrayList<>();
        for (String f : folders) wf.add(new WorkspaceFolder(f, "ws"));
        if (folders.length > 0) p.setWorkspaceFolders(wf);
        InitializeResult r = remote.initialize(p).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        remote.initialized(new InitializedParams());
        return r;
    }

    InitializeResult initialize() throws Exception {
        return initialize(caps(false, false, true), null);
    }

    void open(String uri, String text, int version) {
        remote.getTextDocumentService().didOpen(new DidOpenTextDocumentParams(new TextDocumentItem(uri, "python", version, text)));
    }

    void change(String uri, int version, Range range, String text) {
        TextDocumentContentChangeEvent ev = range == null ? new TextDocumentContentChangeEvent(text)
                : new TextDocumentContentChangeEvent(range, text);
        remote.getTextDocumentService().didChange(new DidChangeTextDocumentParams(
                new VersionedTextDocumentIdentifier(uri, version), List.of(ev)));
    }

    /** The next diagnostics published for the URI whose version is at least {@code version}. */
    PublishDiagnosticsParams published(String uri, int version) throws InterruptedException {
        return client.awaitPublished(p -> p.getUri().equals(uri) && p.getVersion() != null && p.getVersion() >= version);
    }

    static Range range(int l1, int c1, int l2, int c2) {
        return new Range(new Position(l1, c1), new Position(l2, c2));
    }

    @Override
    public void close() {
        String step = "shutdown";
        try {
            // (a test may have shut the server down or ended it itself: a second shutdown is refused)
            if (!server.isShutDown()) remote.shutdown().get(5, TimeUnit.SECONDS);
            step = "exit";
            if (!server.onExit().isDone()) remote.exit();
            server.onExit().get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            System.err.println("DEBUGCLOSE " + step + " " + e);
            for (var en : Thread.getAllStackTraces().entrySet()) {
                StringBuilder b = new StringBuilder("DEBUGTHREAD " + en.getKey().getName() + "\n");
                for (var f : en.getValue()) b.append("    ").append(f).append("\n");
                if (b.toString().contains("lsp4j") || b.toString().contains("graphmend")) System.err.println(b);
            }
        }
        try {
            toServer.close();
            serverOut.close();
        } catch (IOException e) {
            // closed
        }
        exec.shutdown();
    }

    // ------------------------------------------------------------ the client

    static final class RecordingClient implements GraphmendClient {
        final BlockingQueue<PublishDiagnosticsParams> published = new LinkedBlockingQueue<>();
        final List<PublishDiagnosticsParams> allPublished = new CopyOnWriteArrayList<>();
        final List<MessageParams> logs = new CopyOnWriteArrayList<>();
        final List<MessageParams> shown = new CopyOnWriteArrayList<>();
        final List<LogTraceParams> traces = new CopyOnWriteArrayList<>();
        final List<ApplyWorkspaceEditParams> applied = new CopyOnWriteArrayList<>();
        final List<RegistrationParams> registrations = new CopyOnWriteArrayList<>();
        final List<WorkDoneProgressCreateParams> progressCreated = new CopyOnWriteArrayList<>();
        final List<ProgressParams> progress = new CopyOnWriteArrayList<>();
        final List<Object> configurationRequests = new CopyOnWriteArrayList<>();
        /** The params of each graphmend/status notification, in order. */
        final List<JsonObject> statuses = new CopyOnWriteArrayList<>();
        final Map<String, Object> state = new ConcurrentHashMap<>();
        volatile JsonElement configuration = new JsonObject();
        volatile int refreshes;

        PublishDiagnosticsParams awaitPublished(Predicate<PublishDiagnosticsParams> p) throws InterruptedException {
            long end = System.nanoTime() + WAIT.toNanos();
            for (PublishDiagnosticsParams x : allPublished) if (p.test(x)) {
                allPublished.remove(x);
                return x;
            }
            while (true) {
                long left = end - System.nanoTime();
                PublishDiagnosticsParams x = published.poll(Math.max(1, left), TimeUnit.NANOSECONDS);
                if (x == null) throw new AssertionError("no matching publishDiagnostics; saw " + allPublished);
                if (p.test(x)) {
                    allPublished.remove(x);
                    return x;
                }
            }
        }

        @Override public void telemetryEvent(Object object) {}

        @Override public void status(JsonObject params) { statuses.add(params); }

        @Override
        public void publishDiagnostics(PublishDiagnosticsParams d) {
            allPublished.add(d);
            published.add(d);
        }

        @Override public void showMessage(MessageParams m) { shown.add(m); }
        @Override public CompletableFuture<MessageActionItem> showMessageRequest(ShowMessageRequestParams r) { return CompletableFuture.completedFuture(null); }
        @Override public void logMessage(MessageParams m) { logs.add(m); }
        @Override public void logTrace(LogTraceParams p) { traces.add(p); }

        @Override
        public CompletableFuture<ApplyWorkspaceEditResponse> applyEdit(ApplyWorkspaceEditParams p) {
            applied.add(p);
            return CompletableFuture.completedFuture(new ApplyWorkspaceEditResponse(true));
        }

        @Override
        public CompletableFuture<Void> registerCapability(RegistrationParams p) {
            registrations.add(p);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Void> createProgress(WorkDoneProgressCreateParams p) {
            progressCreated.add(p);
            return CompletableFuture.completedFuture(null);
        }

        @Override public void notifyProgress(ProgressParams p) { progress.add(p); }

        @Override
        public CompletableFuture<List<Object>> configuration(ConfigurationParams p) {
            configurationRequests.add(p);
            return CompletableFuture.completedFuture(List.of(configuration));
        }

        @Override
        public CompletableFuture<Void> refreshDiagnostics() {
            refreshes++;
            return CompletableFuture.completedFuture(null);
        }
    }

    static JsonObject json(String s) {
        return JsonParser.parseString(s).getAsJsonObject();
    }
}
