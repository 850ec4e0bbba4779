package dev.graphmend.lsp;

import dev.graphmend.ir.concurrent.DeepStack;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.jsonrpc.MessageConsumer;
import org.eclipse.lsp4j.jsonrpc.RemoteEndpoint;
import org.eclipse.lsp4j.jsonrpc.messages.MessageIssue;
import org.eclipse.lsp4j.jsonrpc.messages.NotificationMessage;
import org.eclipse.lsp4j.jsonrpc.messages.RequestMessage;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;
import org.eclipse.lsp4j.jsonrpc.services.ServiceEndpoints;
import org.eclipse.lsp4j.jsonrpc.json.StreamMessageConsumer;
import org.eclipse.lsp4j.jsonrpc.json.MessageJsonHandler;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * {@code graphmend lsp}: the language server on stdio. Returns the process exit code: 0 when
 * the client sent {@code shutdown} before {@code exit} (or before closing the stream), else 1.
 */
public final class LspMain {
    private LspMain() {}

    /** A launcher whose JSON handler answers malformed messages (see {@link GuardedJsonHandler}). */
    public static Launcher<LanguageClient> launcher(Object server, InputStream in, OutputStream out, ExecutorService exec) {
        return new Launcher.Builder<LanguageClient>() {
            @Override
            protected MessageJsonHandler createJsonHandler() {
                return new GuardedJsonHandler(getSupportedMethods(), configureGson);
            }

            @Override
            protected RemoteEndpoint createRemoteEndpoint(MessageJsonHandler jsonHandler) {
                MessageConsumer outgoing = wrapMessageConsumer(new BufferedMessageConsumer(output, jsonHandler));
                BooleanSupplier shutDown = server instanceof GraphmendServer g ? g::isShutDown : () -> false;
                RemoteEndpoint endpoint = new RemoteEndpoint(outgoing, ServiceEndpoints.toEndpoint(localServices), LspMain::errorOf) {
                    // LSP 3.17: after shutdown every request is an InvalidRequest error and every
                    // notification but exit is dropped (the handlers' threads are stopped by then:
                    // a request that waited for an analysis would never be answered)
                    @Override
                    protected void handleRequest(RequestMessage request) {
                        if (shutDown.getAsBoolean()) {
                            outgoing.consume(createErrorResponseMessage(request, afterShutdown(request)));
                            return;
                        }
                        super.handleRequest(request);
                    }

                    @Override
                    protected void handleNotification(NotificationMessage notification) {
                        if (shutDown.getAsBoolean() && !"exit".equals(notification.getMethod())) return;
                        super.handleNotification(notification);
                    }

                    @Override
                    protected void handleRequestIssues(RequestMessage request, List<MessageIssue> issues) {
                        if (shutDown.getAsBoolean()) {
                            outgoing.consume(createErrorResponseMessage(request, afterShutdown(request)));
                            return;
                        }
                        // several problems with the params of a known method are Invalid params, not Invalid Request
                        if (issues.size() > 1 && request.getMethod() != null) {
                            ResponseError error = new ResponseError(ResponseErrorCode.InvalidParams,
                                    "Invalid params for " + request.getMethod() + ": " + issues.get(0).getText()
                                            + " (and " + (issues.size() - 1) + " more)", null);
                            outgoing.consume(createErrorResponseMessage(request, error));
                            return;
                        }
                        super.handleRequestIssues(request, issues);
                    }
                };
                jsonHandler.setMethodProvider(endpoint);
                endpoint.setJsonHandler(jsonHandler);
                return endpoint;
            }

            @Override
            protected MessageConsumer wrapMessageConsumer(MessageConsumer consumer) {
                if (!(consumer instanceof StreamMessageConsumer)) {
                    MessageConsumer validated = super.wrapMessageConsumer(consumer);
                    // VS Code's client sends {"settings": null} (the pull model), which LSP4J's validator rejects
                    return message -> {
                        if (message instanceof NotificationMessage
                                && "workspace/didChangeConfiguration".equals(((NotificationMessage) message).getMethod())) {
                            consumer.consume(message);
                        } else {
                            validated.consume(message);
                        }
                    };
                }
                // outgoing: not validated, so an error response to an unparsable request may carry "id": null
                MessageConsumer result = consumer;
                if (messageTracer != null) result = messageTracer.apply(result);
                if (messageWrapper != null) result = messageWrapper.apply(result);
                return result;
            }
        }.setLocalService(server)
                .setRemoteInterface(GraphmendClient.class) // LSP, and graphmend/status
                .setInput(in)
                .setOutput(out)
                .setExecutorService(exec)
                .validateMessages(true)
                .configureGson(b -> b.registerTypeAdapterFactory(new AnnotatedEditsAdapter()).registerTypeAdapterFactory(new MappedDiagnostic.Adapter()))
                .create();
    }

    /**
     * The error response to a request whose handler threw. LSP4J's service interfaces declare
     * methods this server does not implement (completion, definition, ...), whose default throws
     * UnsupportedOperationException: that is Method not found, not LSP4J's Internal error with a
     * stack trace.
     */
    static ResponseError errorOf(Throwable t) {
        Throwable c = t;
        while (!(c instanceof UnsupportedOperationException) && c.getCause() != null && c.getCause() != c) c = c.getCause();
        StackTraceElement[] at = c.getStackTrace();
        if (c instanceof UnsupportedOperationException && at.length > 0 && at[0].getClassName().startsWith("org.eclipse.lsp4j.services.")) {
            return new ResponseError(ResponseErrorCode.MethodNotFound, "GraphMend's server does not implement "
                    + at[0].getMethodName() + " (see its capabilities)", null);
        }
        return RemoteEndpoint.DEFAULT_EXCEPTION_HANDLER.apply(t);
    }

    private static ResponseError afterShutdown(RequestMessage request) {
        return new ResponseError(ResponseErrorCode.InvalidRequest, "the server is shut down: " + request.getMethod()
                + " is refused (only exit is accepted after shutdown)", null);
    }

    public static int run(List<String> args, InputStream in, OutputStream out, PrintStream err) {
        GraphmendServer.Options options = GraphmendServer.Options.defaults();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--stdio")) continue;
            if (a.equals("--debounce-ms") && i + 1 < args.size() && args.get(i + 1).matches("\\d{1,6}")) {
                options = new GraphmendServer.Options(Long.parseLong(args.get(++i)), options.othersDelayMs(), options.warmUp(),
                        options.environment());
                continue;
            }
            err.println("graphmend lsp: unknown argument " + a + " (usage: graphmend lsp [--stdio] [--debounce-ms N]; "
                    + "it speaks LSP on stdin/stdout)");
            return 2;
        }
        // stdout is the protocol: anything printed by mistake goes to stderr instead
        System.setOut(err);
        GraphmendServer server = new GraphmendServer(Engine.DEFAULT, options, err);
        // the message threads parse too (a didChange, a request's document): the front end's fixed stack
        ExecutorService exec = Executors.newCachedThreadPool(DeepStack.factory("graphmend-jsonrpc", true));
        Launcher<LanguageClient> launcher = launcher(server, in, out, exec);
        server.connect(launcher.getRemoteProxy());
        Future<Void> listening = launcher.startListening();
        CompletableFuture<Integer> exit = server.onExit();
        CompletableFuture.runAsync(() -> {
            try {
                listening.get();
            } catch (Exception e) {
                // the stream ended or broke
            }
            exit.complete(server.exitCode()); // the client went away without 'exit'
        }, exec);
        int code = exit.join();
        err.flush();
        return code;
    }
}
