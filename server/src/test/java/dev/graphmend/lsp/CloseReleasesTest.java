package dev.graphmend.lsp;

import static dev.graphmend.lsp.Harness.range;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.DidCloseTextDocumentParams;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Closing a document drops every reference the server holds to it (issue 40): its open-document
 * record, each version's tree (UniIR) and the module the engine saw become unreachable, whether or
 * not other documents stay open.
 */
@Timeout(120)
class CloseReleasesTest {
    static final String OTHER = "file:///tmp/graphmend-lsp-test/other.py";

    /** The closed document's objects, weakly held. */
    private static List<WeakReference<Object>> held(Harness h, String uri) {
        OpenDocument d = h.server.document(uri);
        assertNotNull(d, uri);
        Snapshot s = d.snapshot();
        List<WeakReference<Object>> refs = new ArrayList<>();
        refs.add(new WeakReference<>(d));
        refs.add(new WeakReference<>(s));
        refs.add(new WeakReference<>(s.ir));
        refs.add(new WeakReference<>(s.doc()));
        refs.add(new WeakReference<>(s.module()));
        return refs;
    }

    /** Collects until every reference is clear, at most 20 s; returns the names of those still alive. */
    private static List<String> alive(List<WeakReference<Object>> refs) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        List<String> left;
        do {
            System.gc();
            Thread.sleep(50);
            left = new ArrayList<>();
            for (WeakReference<Object> r : refs) {
                Object o = r.get();
                if (o != null) left.add(o.getClass().getSimpleName());
            }
        } while (!left.isEmpty() && System.nanoTime() < end);
        return left;
    }

    private static void close(Harness h, String uri) {
        h.remote.getTextDocumentService().didClose(new DidCloseTextDocumentParams(new TextDocumentIdentifier(uri)));
    }

    @Test
    void closingTheOnlyDocumentReleasesIt() throws Exception {
        try (Harness h = new Harness()) {
            h.initialize(Harness.caps(false, true, true), null);
            String uri = RobustnessTest.URI;
            h.open(uri, Texts.SAMPLE, 1);
            h.published(uri, 1);
            h.change(uri, 2, range(0, 0, 0, 0), "# edited\n");
            h.published(uri, 2);
            // requests that build answers from the analysis
            CodeActionTest.actions(h, range(0, 0, 9, 0), null);
            h.remote.getTextDocumentService().hover(new HoverParams(new TextDocumentIdentifier(uri), new Position(6, 8)))
                    .get(10, TimeUnit.SECONDS);
            List<WeakReference<Object>> refs = held(h, uri);
            close(h, uri);
            h.client.awaitPublished(p -> p.getUri().equals(uri) && p.getDiagnostics().isEmpty() && p.getVersion() == null);
            assertEquals(List.of(), alive(refs));
        }
    }

    @Test
    void closingOneOfTwoDocumentsReleasesIt() throws Exception {
        try (Harness h = new Harness()) {
            h.initialize(Harness.caps(false, true, true), null);
            String uri = RobustnessTest.URI;
            h.open(OTHER, "import torch\n\ndef g(x):\n    return x + 1\n", 1);
            h.published(OTHER, 1);
            h.open(uri, Texts.SAMPLE, 1);
            h.published(uri, 1);
            List<WeakReference<Object>> refs = held(h, uri);
            close(h, uri);
            h.client.awaitPublished(p -> p.getUri().equals(uri) && p.getDiagnostics().isEmpty() && p.getVersion() == null);
            // the other document is analysed again without it
            h.published(OTHER, 1);
            List<String> left = alive(refs);
            assertTrue(left.isEmpty(), "still held after close: " + left);
        }
    }

    /** With a workspace indexed, the last close builds the workspace's project again without the document. */
    @Test
    void closingTheLastDocumentOfAnIndexedWorkspaceReleasesIt(@org.junit.jupiter.api.io.TempDir java.nio.file.Path ws) throws Exception {
        java.nio.file.Files.writeString(ws.resolve("helpers.py"), "import torch\n\ndef h(x):\n    return x * 2\n");
        try (Harness h = new Harness()) {
            h.initialize(Harness.caps(false, true, true), null, ws.toUri().toString());
            h.server.indexed().get(30, TimeUnit.SECONDS);
            String uri = RobustnessTest.URI;
            h.open(uri, Texts.SAMPLE, 1);
            h.published(uri, 1);
            List<WeakReference<Object>> refs = held(h, uri);
            close(h, uri);
            h.client.awaitPublished(p -> p.getUri().equals(uri) && p.getDiagnostics().isEmpty() && p.getVersion() == null);
            List<String> left = alive(refs);
            assertTrue(left.isEmpty(), "still held after close: " + left);
        }
    }
}
