package dev.graphmend.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The arguments of {@code graphmend lsp}: --stdio (what clients pass) and --debounce-ms N; anything else is a usage error. */
@Timeout(30)
class LspMainTest {
    private static int run(List<String> args, ByteArrayOutputStream err) {
        PrintStream stdout = System.out;
        try {
            return LspMain.run(args, new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream(),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
        } finally {
            System.setOut(stdout); // run() points System.out at stderr
        }
    }

    @Test
    void unknownArgumentsAreUsageErrors() {
        for (List<String> args : List.of(List.of("--bogus"), List.of("--debounce-ms"), List.of("--debounce-ms", "soon"),
                List.of("--debounce-ms", "-5"))) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            assertEquals(2, run(args, err), args.toString());
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("usage: graphmend lsp"), err.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void debounceAndStdioAreAccepted() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // no input: the client is gone at once, so the server stops; what matters is that it started
        assertNotEquals(2, run(List.of("--stdio", "--debounce-ms", "40"), err), err.toString(StandardCharsets.UTF_8));
    }

    private static void send(OutputStream to, String json) throws Exception {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        to.write(("Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        to.write(body);
        to.flush();
    }

    private static String request(int id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}";
    }

    /** Waits until the server has answered request {@code id}; returns what it wrote so far. */
    private static String awaitAnswer(ByteArrayOutputStream out, int id) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < end) {
            String w = out.toString(StandardCharsets.UTF_8);
            if (w.contains("\"id\":" + id + ",")) return w;
            Thread.sleep(5);
        }
        throw new AssertionError("request " + id + " was not answered within 10 s; the server wrote " + out.toString(StandardCharsets.UTF_8));
    }

    /**
     * LSP 3.17, shutdown: every request after it but {@code exit} gets InvalidRequest (-32600), notifications are
     * dropped, and {@code exit} then ends the process with 0 (the input stays open: exit alone ends it).
     */
    @Test
    void requestsAfterShutdownAreInvalidRequestsAndExitEndsWithZero() throws Exception {
        Pipe in = Pipe.open();
        OutputStream to = Channels.newOutputStream(in.sink());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        CompletableFuture<Integer> code = CompletableFuture.supplyAsync(() -> LspMain.run(List.of("--stdio"),
                Channels.newInputStream(in.source()), out, new PrintStream(err, true, StandardCharsets.UTF_8)));
        try {
            String uri = "file:///tmp/graphmend-lsp-test/after-shutdown.py";
            String doc = "{\"textDocument\":{\"uri\":\"" + uri + "\"}";
            String at = doc + ",\"position\":{\"line\":5,\"character\":8}}";
            send(to, request(1, "initialize", "{\"capabilities\":{}}"));
            awaitAnswer(out, 1);
            send(to, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"" + uri
                    + "\",\"languageId\":\"python\",\"version\":1,\"text\":\"" + Texts.SAMPLE.replace("\"", "\\\"").replace("\n", "\\n") + "\"}}}");
            send(to, request(2, "shutdown", "null"));
            awaitAnswer(out, 2);
            List<String> after = List.of(
                    request(10, "textDocument/hover", at),
                    request(11, "textDocument/codeAction", doc + ",\"range\":{\"start\":{\"line\":0,\"character\":0},"
                            + "\"end\":{\"line\":9,\"character\":0}},\"context\":{\"diagnostics\":[]}}"),
                    request(12, "textDocument/diagnostic", doc + "}"),
                    request(13, "codeAction/resolve", "{\"title\":\"x\",\"data\":{\"uri\":\"" + uri + "\",\"version\":1,\"kind\":\"fixAll\"}}"),
                    request(14, "workspace/executeCommand", "{\"command\":\"graphmend.fixAll\",\"arguments\":[{\"uri\":\"" + uri
                            + "\",\"version\":1}]}"),
                    request(15, "textDocument/completion", at),
                    request(16, "graphmend/noSuchMethod", "{}"),
                    request(17, "shutdown", "null"),
                    request(18, "initialize", "{\"capabilities\":{}}"));
            // a notification after shutdown is dropped: the document stays as it was, nothing is published for it
            send(to, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{\"uri\":\"" + uri
                    + "\",\"version\":2},\"contentChanges\":[{\"text\":\"x = 1\\n\"}]}}");
            for (String r : after) send(to, r);
            for (int id = 10; id < 10 + after.size(); id++) {
                String w = awaitAnswer(out, id);
                String answer = w.substring(w.indexOf("\"id\":" + id + ","));
                assertTrue(answer.startsWith("\"id\":" + id + ",\"error\":{\"code\":-32600"), answer);
            }
            assertFalse(out.toString(StandardCharsets.UTF_8).contains("\"version\":2"), out.toString(StandardCharsets.UTF_8));
            send(to, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
            assertEquals(0, code.get(10, TimeUnit.SECONDS), err.toString(StandardCharsets.UTF_8));
        } finally {
            to.close();
            code.get(10, TimeUnit.SECONDS);
            System.setOut(stdout); // run() points System.out at stderr
        }
    }
}
