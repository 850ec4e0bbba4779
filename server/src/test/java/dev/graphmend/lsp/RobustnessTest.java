package dev.graphmend.lsp;

import static dev.graphmend.lsp.Harness.range;
import static org.junit.jupiter.api.Assertions.*;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.*;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Bad input of every kind gets a JSON-RPC error or a result, and the server keeps serving. */
@Timeout(60)
class RobustnessTest {
    static final String URI = DiagnosticsTest.URI;

    static void stillServing(Harness h) throws Exception {
        DocumentDiagnosticReport r = h.remote.getTextDocumentService()
                .diagnostic(new DocumentDiagnosticParams(new TextDocumentIdentifier(URI))).get(10, TimeUnit.SECONDS);
        assertFalse(r.getRelatedFullDocumentDiagnosticReport().getItems().isEmpty());
    }

    static int errorCode(ResponseMessage m) {
        return m.getError().getCode();
    }

    @Test
    void malformedJsonAndInvalidRequestsGetJsonRpcErrors() throws Exception {
        try (Harness h = new Harness()) {
            h.initialize();
            h.open(URI, Texts.SAMPLE, 1);
            h.published(URI, 1);
            h.rawMessage("{\"jsonrpc\": \"2.0\", \"id\": 901, \"method\": \"textDocument/hover\", ");
            ResponseMessage parse = h.response(m -> m.getError() != null && m.getError().getCode() == ResponseErrorCode.ParseError.getValue());
            assertTrue(parse.getId() == null || parse.getId().equals("901"), parse.toString()); // the id, when it could be read
            h.rawMessage("{\"jsonrpc\": \"2.0\", \"method\": \"textDocument/hover\", \"id\": ");
            h.awaitWire("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700", 1);
            h.rawMessage("[1, 2, 3]");
            h.awaitWire("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600", 1);
            h.rawMessage("{\"jsonrpc\": \"2.0\", \"id\": 902, \"method\": \"textDocument/hover\", \"params\": {\"textDocument\": 7, \"position\": \"x\"}}");
            ResponseMessage params = h.response(m -> "902".equals(m.getId()));
            assertEquals(ResponseErrorCode.InvalidParams.getValue(), errorCode(params));
            h.rawMessage("{\"jsonrpc\": \"2.0\", \"id\": 903, \"method\": \"textDocument/hover\", \"params\": {}}");
            assertEquals(ResponseErrorCode.InvalidParams.getValue(), errorCode(h.response(m -> "903".equals(m.getId()))));
            h.rawMessage("{\"jsonrpc\": \"2.0\", \"id\": 904, \"method\": \"graphmend/noSuchMethod\", \"params\": {}}");
            assertEquals(ResponseErrorCode.MethodNotFound.getValue(), errorCode(h.response(m -> "904".equals(m.getId()))));
            // a method LSP4J declares but the server does not implement: Method not found too, not an internal error
            h.rawMessage("{\"jsonrpc\": \"2.0\", \"id\": 905, \"method\": \"textDocument/completion\", \"params\": {\"textDocument\": {\"uri\": \""
                    + URI + "\"}, \"position\": {\"line\": 0, \"character\": 0}}}");
            assertEquals(ResponseErrorCode.MethodNotFound.getValue(), errorCode(h.response(m -> "905".equals(m.getId()))));
            h.rawMessage("{\"jsonrpc\": \"2.0\", \"method\": \"graphmend/noSuchNotification\", \"params\": {}}");
            h.rawMessage("{\"jsonrpc\": \"2.0\", \"method\": \"$/somethingOptional\"}");
            h.rawMessage("{\"jsonrpc\": \"2.0\", \"method\": \"textDocument/didChange\", \"params\": {\"textDocument\": 3}}");
            stillServing(h);
        }
    }

    @Test
    void invalidUtf8InTheStream() throws Exception {
        try (Harness h = new Harness(); ByteArrayOutputStream b = new ByteArrayOutputStream()) {
            h.initialize(Harness.caps(true, false, true), null);
            // bytes that are not UTF-8 inside the document text: decoded as U+FFFD, the document still analysed
            String head = "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"" + URI
                    + "\",\"languageId\":\"python\",\"version\":1,\"text\":\"# ";
            b.write(head.getBytes(StandardCharsets.UTF_8));
            b.write(new byte[] {(byte) 0xff, (byte) 0xfe, (byte) 0xc3});
            b.write(("\\n" + Texts.SAMPLE.replace("\n", "\\n").replace("\"", "\\\"") + "\"}}}").getBytes(StandardCharsets.UTF_8));
            h.rawMessage(b.toByteArray());
            DocumentDiagnosticReport r = h.remote.getTextDocumentService()
                    .diagnostic(new DocumentDiagnosticParams(new TextDocumentIdentifier(URI))).get(10, TimeUnit.SECONDS);
            assertEquals(2, r.getRelatedFullDocumentDiagnosticReport().getItems().size());
            // outside a string: not JSON at all
            h.rawMessage(new byte[] {'{', (byte) 0xff, (byte) 0xfe, '}'});
            h.awaitWire("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700", 1);
            stillServing(h);
        }
    }

    @Test
    void outOfRangeAndStaleChangesAreClampedAndApplied() throws Exception {
        try (Harness h = new Harness()) {
            h.initialize();
            h.open(URI, Texts.SAMPLE, 5);
            h.published(URI, 5);
            h.change(URI, 6, range(500, 3, 900, 0), "\n# appended past the end\n");
            assertEquals(2, h.published(URI, 6).getDiagnostics().size());
            h.change(URI, 7, range(0, 999, 0, 999), "  # past the end of the line");
            assertEquals(2, h.published(URI, 7).getDiagnostics().size());
            h.change(URI, 3, range(0, 0, 0, 0), "\n");       // stale version number: applied, as the client has it
            PublishDiagnosticsParams p = h.client.awaitPublished(x -> x.getUri().equals(URI) && x.getVersion() == 3);
            assertEquals(6, p.getDiagnostics().get(0).getRange().getStart().getLine());
            assertTrue(h.client.logs.stream().anyMatch(m -> m.getMessage().contains("not newer")));
            stillServing(h);
        }
    }

    @Test
    void fiftyThousandLines() throws Exception {
        StringBuilder b = new StringBuilder("import torch\n\n");
        for (int i = 0; i < 12_500; i++) {
            b.append("def g").append(i).append("(x):\n    y = x + ").append(i).append("\n    return y\n\n");
        }
        b.append(Texts.SAMPLE.substring("import torch\n".length()));
        String text = b.toString();
        assertTrue(text.split("\n", -1).length >= 50_000);
        try (Harness h = new Harness()) {
            h.initialize();
            long t0 = System.nanoTime();
            h.open(URI, text, 1);
            PublishDiagnosticsParams p = h.published(URI, 1);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 10_000, "took " + ms + " ms");
            assertEquals(2, p.getDiagnostics().size());
            int line = p.getDiagnostics().get(0).getRange().getStart().getLine();
            h.change(URI, 2, range(line, 7, line, 18), "x.shape[0] > 0");
            assertEquals(1, h.published(URI, 2).getDiagnostics().size());
        }
    }

    @Test
    void fiveHundredSyntaxErrors() throws Exception {
        StringBuilder b = new StringBuilder(Texts.SAMPLE);
        for (int i = 0; i < 500; i++) b.append("def broken").append(i).append("(:\n    pass\n");
        try (Harness h = new Harness()) {
            h.initialize();
            h.open(URI, b.toString(), 1);
            List<Diagnostic> ds = h.published(URI, 1).getDiagnostics();
            assertTrue(ds.stream().filter(d -> d.getCode().getLeft().equals("GM000")).count() >= 100, "" + ds.size());
            assertTrue(ds.stream().anyMatch(d -> d.getCode().getLeft().equals("GM101")));
            for (Diagnostic d : ds) assertEquals(DiagnosticSeverity.class, d.getSeverity().getClass());
            stillServing(h);
        }
    }

    /** The engine, each analysis held until {@code release} (at most 20 s); {@code entered} counts down when one starts. */
    static Engine blocking(CountDownLatch entered, CountDownLatch release) {
        Engine slow = mock(Engine.class);
        when(slow.analyze(any(), any(), any())).thenAnswer(inv -> {
            entered.countDown();
            release.await(20, TimeUnit.SECONDS);
            return Engine.DEFAULT.analyze(inv.getArgument(0), inv.getArgument(1), inv.getArgument(2));
        });
        return slow;
    }

    @Test
    void cancelRequestAnswersRequestCancelled() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (Harness h = new Harness(blocking(new CountDownLatch(1), release))) {
            h.initialize(Harness.caps(true, false, true), null);
            h.open(URI, Texts.SAMPLE, 1);
            var f = h.remote.getTextDocumentService().diagnostic(new DocumentDiagnosticParams(new TextDocumentIdentifier(URI)));
            Thread.sleep(100);
            f.cancel(true); // sends $/cancelRequest
            h.response(m -> m.getError() != null && errorCode(m) == ResponseErrorCode.RequestCancelled.getValue());
            release.countDown();
            DocumentDiagnosticReport r = h.remote.getTextDocumentService()
                    .diagnostic(new DocumentDiagnosticParams(new TextDocumentIdentifier(URI))).get(20, TimeUnit.SECONDS);
            assertEquals(2, r.getRelatedFullDocumentDiagnosticReport().getItems().size());
        }
    }

    /** A request still waiting for an analysis when shutdown arrives is answered (with an error), not left waiting. */
    @Test
    void requestWaitingAtShutdownIsAnswered() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (Harness h = new Harness(blocking(entered, release))) {
            h.initialize(Harness.caps(true, false, true), null);
            h.open(URI, Texts.SAMPLE, 1);
            var pending = h.remote.getTextDocumentService().diagnostic(new DocumentDiagnosticParams(new TextDocumentIdentifier(URI)));
            assertTrue(entered.await(10, TimeUnit.SECONDS));
            h.remote.shutdown().get(10, TimeUnit.SECONDS);
            var ex = assertThrows(java.util.concurrent.ExecutionException.class, () -> pending.get(10, TimeUnit.SECONDS));
            assertEquals(ResponseErrorCode.InvalidRequest.getValue(),
                    ((org.eclipse.lsp4j.jsonrpc.ResponseErrorException) ex.getCause()).getResponseError().getCode());
            release.countDown();
            h.remote.exit();
            assertEquals(0, h.server.onExit().get(10, TimeUnit.SECONDS));
        }
    }
}
