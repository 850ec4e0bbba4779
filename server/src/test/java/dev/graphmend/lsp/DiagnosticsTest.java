package dev.graphmend.lsp;

import static dev.graphmend.lsp.Harness.range;
import static org.junit.jupiter.api.Assertions.*;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.atMost;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.*;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mockito.AdditionalAnswers;

/** Pushed and pulled diagnostics, incremental sync, debounce and stale work. */
@Timeout(30)
class DiagnosticsTest {
    static final String URI = "file:///tmp/graphmend-lsp-test/sample.py";

    @Test
    void initializeIsHonest() throws Exception {
        try (Harness h = new Harness()) {
            InitializeResult r = h.initialize();
            ServerCapabilities c = r.getCapabilities();
            assertEquals("utf-16", c.getPositionEncoding());
            assertEquals(TextDocumentSyncKind.Incremental, c.getTextDocumentSync().getRight().getChange());
            assertTrue(c.getTextDocumentSync().getRight().getOpenClose());
            assertFalse(c.getTextDocumentSync().getRight().getSave().getRight().getIncludeText(), "saves announced, without the text");
            assertTrue(c.getHoverProvider().getLeft());
            assertEquals(List.of("quickfix", "source.fixAll.graphmend"), c.getCodeActionProvider().getRight().getCodeActionKinds());
            assertTrue(c.getCodeActionProvider().getRight().getResolveProvider());
            assertEquals(List.of("graphmend.fixAll"), c.getExecuteCommandProvider().getCommands());
            assertEquals("graphmend", c.getDiagnosticProvider().getIdentifier());
            assertTrue(c.getDiagnosticProvider().isInterFileDependencies());
            assertNull(c.getCompletionProvider());
            assertNull(c.getDefinitionProvider());
            assertEquals("graphmend", r.getServerInfo().getName());
        }
    }

    @Test
    void positionEncodingIsNegotiated() throws Exception {
        for (var tc : List.of(List.of("utf-8", "utf-16"), List.of("utf-32"), List.of("latin-1"), List.<String>of())) {
            try (Harness h = new Harness()) {
                ClientCapabilities caps = Harness.caps(false, false, false);
                GeneralClientCapabilities g = new GeneralClientCapabilities();
                g.setPositionEncodings(tc);
                caps.setGeneral(g);
                String got = h.initialize(caps, null).getCapabilities().getPositionEncoding();
                String want = tc.isEmpty() || tc.get(0).equals("latin-1") ? "utf-16" : tc.get(0);
                assertEquals(want, got, tc.toString());
            }
        }
    }

    @Test
    void pushedWithVersionAndFullData() throws Exception {
        try (Harness h = new Harness()) {
            h.initialize();
            h.open(URI, Texts.SAMPLE, 1);
            PublishDiagnosticsParams p = h.published(URI, 1);
            assertEquals(1, p.getVersion());
            assertEquals(2, p.getDiagnostics().size(), p.toString());
            Diagnostic d = p.getDiagnostics().get(0);
            assertEquals("GM101", d.getCode().getLeft());
            assertEquals("graphmend", d.getSource());
            assertEquals(range(5, 7, 5, 18), d.getRange());
            assertEquals(DiagnosticSeverity.Warning, d.getSeverity());
            assertTrue(d.getCodeDescription().getHref().endsWith("/docs/rules/GM101.md"));
            assertFalse(d.getMessage().getLeft().isBlank());
            DiagnosticRelatedInformation rel = d.getRelatedInformation().get(0);
            assertEquals(URI, rel.getLocation().getUri());
            assertEquals(4, rel.getLocation().getRange().getStart().getLine()); // @torch.compile def f on line 5
            assertTrue(rel.getMessage().startsWith("compiled because of"), rel.getMessage());
            var data = (com.google.gson.JsonObject) d.getData();
            assertEquals("data-dependent-branch", data.get("rule").getAsString());
            assertEquals("GB0170", data.getAsJsonArray("dynamo").get(0).getAsString());
            assertTrue(data.has("fixes"));
            assertEquals("GM102", p.getDiagnostics().get(1).getCode().getLeft());
        }
    }

    @Test
    void incrementalChangesRepublishAndCleanFileGetsEmptyList() throws Exception {
        try (Harness h = new Harness()) {
            h.initialize();
            h.open(URI, Texts.SAMPLE, 1);
            assertEquals(2, h.published(URI, 1).getDiagnostics().size());
            h.change(URI, 2, range(5, 7, 5, 18), "x.shape[0] > 0");   // shapes do not break
            PublishDiagnosticsParams p = h.published(URI, 2);
            assertEquals(List.of("GM102"), p.getDiagnostics().stream().map(d -> d.getCode().getLeft()).toList());
            h.change(URI, 3, range(7, 0, 8, 0), "");                    // delete the print line
            p = h.published(URI, 3);
            assertEquals(3, p.getVersion());
            assertEquals(List.of(), p.getDiagnostics());
            h.remote.getTextDocumentService().didClose(new DidCloseTextDocumentParams(new TextDocumentIdentifier(URI)));
            PublishDiagnosticsParams closed = h.client.awaitPublished(x -> x.getUri().equals(URI) && x.getVersion() == null);
            assertEquals(List.of(), closed.getDiagnostics());
        }
    }

    @Test
    void newerVersionsCancelStaleWork() throws Exception {
        Engine engine = mock(Engine.class, AdditionalAnswers.delegatesTo(Engine.DEFAULT));
        try (Harness h = new Harness(engine)) {
            h.initialize();
            h.open(URI, Texts.SAMPLE, 1);
            h.published(URI, 1);
            for (int v = 2; v <= 30; v++) h.change(URI, v, range(0, 0, 0, 0), "# edit " + v + "\n");
            PublishDiagnosticsParams p = h.published(URI, 30);
            assertEquals(30, p.getVersion());
            assertEquals(range(34, 7, 34, 18), p.getDiagnostics().get(0).getRange());
            // 30 versions, but debouncing and cancellation leave far fewer analyses
            verify(engine, atMost(10)).analyze(any(), any(), any());
            for (PublishDiagnosticsParams x : h.client.allPublished) assertTrue(x.getVersion() == null || x.getVersion() <= 30);
        }
    }

    @Test
    void withoutDebounceABurstEndsWithTheNewestVersionAndNothingStaleAfterIt() throws Exception {
        Engine engine = mock(Engine.class, AdditionalAnswers.delegatesTo(Engine.DEFAULT));
        try (Harness h = new Harness(engine, GraphmendServer.Options.defaults())) {
            h.initialize();
            h.open(URI, Texts.SAMPLE, 1);
            h.published(URI, 1);
            for (int v = 2; v <= 30; v++) h.change(URI, v, range(0, 0, 0, 0), "# edit " + v + "\n");
            long until = System.nanoTime() + 20_000_000_000L;
            while (h.client.allPublished.stream().noneMatch(x -> URI.equals(x.getUri()) && Integer.valueOf(30).equals(x.getVersion()))
                    && System.nanoTime() < until) {
                Thread.sleep(5);
            }
            Thread.sleep(200); // anything still running would publish now
            PublishDiagnosticsParams p = h.client.allPublished.get(h.client.allPublished.size() - 1);
            assertEquals(30, p.getVersion());
            assertEquals(range(34, 7, 34, 18), p.getDiagnostics().get(0).getRange());
            int last = 0;
            for (PublishDiagnosticsParams x : h.client.allPublished) {
                if (x.getVersion() == null || !x.getUri().equals(URI)) continue;
                assertTrue(x.getVersion() > last, "published v" + x.getVersion() + " after v" + last);
                last = x.getVersion();
            }
            assertEquals(30, last);
        }
    }

    @Test
    void pulledWithResultIds() throws Exception {
        try (Harness h = new Harness()) {
            h.initialize(Harness.caps(true, false, true), null);
            h.open(URI, Texts.SAMPLE, 1);
            var tds = h.remote.getTextDocumentService();
            DocumentDiagnosticReport r = tds.diagnostic(new DocumentDiagnosticParams(new TextDocumentIdentifier(URI)))
                    .get(10, TimeUnit.SECONDS);
            RelatedFullDocumentDiagnosticReport full = r.getRelatedFullDocumentDiagnosticReport();
            assertEquals(2, full.getItems().size());
            assertNotNull(full.getResultId());
            DocumentDiagnosticParams again = new DocumentDiagnosticParams(new TextDocumentIdentifier(URI));
            again.setPreviousResultId(full.getResultId());
            DocumentDiagnosticReport same = tds.diagnostic(again).get(10, TimeUnit.SECONDS);
            assertTrue(same.isRelatedUnchangedDocumentDiagnosticReport());
            assertEquals(full.getResultId(), same.getRelatedUnchangedDocumentDiagnosticReport().getResultId());
            h.change(URI, 2, range(5, 7, 5, 18), "x.shape[0] > 0");
            DocumentDiagnosticReport changed = tds.diagnostic(again).get(10, TimeUnit.SECONDS);
            assertTrue(changed.isRelatedFullDocumentDiagnosticReport());
            assertEquals(1, changed.getRelatedFullDocumentDiagnosticReport().getItems().size());
            assertNotEquals(full.getResultId(), changed.getRelatedFullDocumentDiagnosticReport().getResultId());
            // a client that pulls gets no pushes (VS Code would show everything twice)
            Thread.sleep(100);
            assertTrue(h.client.allPublished.isEmpty(), h.client.allPublished.toString());
        }
    }

    @Test
    void pullForUnopenedDocumentIsAnError() throws Exception {
        try (Harness h = new Harness()) {
            h.initialize();
            var f = h.remote.getTextDocumentService().diagnostic(new DocumentDiagnosticParams(new TextDocumentIdentifier("file:///nope.py")));
            var ex = assertThrows(java.util.concurrent.ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS));
            assertTrue(ex.getCause().getMessage().contains("not open"), ex.getCause().getMessage());
            assertNull(h.remote.getTextDocumentService().hover(new HoverParams(new TextDocumentIdentifier("file:///nope.py"),
                    new Position(0, 0))).get(10, TimeUnit.SECONDS));
            assertEquals(List.of(), h.remote.getTextDocumentService().codeAction(new CodeActionParams(
                    new TextDocumentIdentifier("file:///nope.py"), range(0, 0, 0, 0), new CodeActionContext(List.of())))
                    .get(10, TimeUnit.SECONDS));
            h.change("file:///nope.py", 3, range(0, 0, 0, 0), "x");
            h.open(URI, Texts.SAMPLE, 1);
            assertEquals(2, h.published(URI, 1).getDiagnostics().size()); // still serving
        }
    }

    @Test
    void utf8AndUtf32PositionsAndTabsAndCrlf() throws Exception {
        String text = "import torch\r\n\r\n@torch.compile\r\ndef f(x):\r\n\tif x.sum() > 0:  # \uD83D\uDE00\r\n\t\ts = \"\u00e9\uD83D\uDE00\"; print(s)\r\n\t\treturn x\r\n\treturn -x\r\n";
        for (String enc : List.of("utf-16", "utf-8", "utf-32")) {
            try (Harness h = new Harness()) {
                ClientCapabilities caps = Harness.caps(false, false, false);
                GeneralClientCapabilities g = new GeneralClientCapabilities();
                g.setPositionEncodings(List.of(enc));
                caps.setGeneral(g);
                h.initialize(caps, null);
                h.open(URI, text, 1);
                List<Diagnostic> ds = h.published(URI, 1).getDiagnostics();
                assertEquals(range(4, 4, 4, 15), ds.get(0).getRange(), enc);
                int before = switch (enc) { case "utf-8" -> 2 + 5 + 2 + 4 + 3; case "utf-16" -> 2 + 4 + 1 + 1 + 2 + 1 + 2; default -> 2 + 4 + 1 + 1 + 1 + 1 + 2; };
                assertEquals(range(5, before, 5, before + 8), ds.get(1).getRange(), enc);
                // an edit in the session's encoding lands where it should: replace `print(s)` by `pass`
                h.change(URI, 2, ds.get(1).getRange(), "pass");
                assertEquals(List.of("GM101"), h.published(URI, 2).getDiagnostics().stream().map(d -> d.getCode().getLeft()).toList());
            }
        }
    }
}
