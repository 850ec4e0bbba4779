package dev.graphmend.lsp;

import static dev.graphmend.lsp.Harness.range;
import static org.junit.jupiter.api.Assertions.*;

import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.*;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Quick fixes, "Disable for this line", fix-all (action and command), lazy resolve, hover. */
@Timeout(30)
class CodeActionTest {
    static final String URI = DiagnosticsTest.URI;

    static List<CodeAction> actions(Harness h, Range r, List<String> only) throws Exception {
        CodeActionContext ctx = new CodeActionContext(List.of());
        ctx.setOnly(only);
        List<CodeAction> out = new ArrayList<>();
        for (Either<Command, CodeAction> e : h.remote.getTextDocumentService()
                .codeAction(new CodeActionParams(new TextDocumentIdentifier(URI), r, ctx)).get(10, TimeUnit.SECONDS)) {
            out.add(e.getRight());
        }
        return out;
    }

    static CodeAction titled(List<CodeAction> as, String title) {
        return as.stream().filter(a -> a.getTitle().equals(title)).findFirst()
                .orElseThrow(() -> new AssertionError("no action '" + title + "' in " + as.stream().map(CodeAction::getTitle).toList()));
    }

    @Test
    void oneQuickFixPerLegalFixSafeOnesApplyWhenChosenUnsafeOnesAskWithTheReason() throws Exception {
        try (Harness h = new Harness(FakeFixes.engine())) {
            h.initialize();
            h.open(URI, Texts.SAMPLE, 1);
            h.published(URI, 1);
            List<CodeAction> as = actions(h, range(5, 10, 5, 10), null);
            assertEquals(List.of("Rewrite to torch.where", "Disable GM101 for this line",
                    "Fix all GraphMend problems in this file"), as.stream().map(CodeAction::getTitle).toList());
            assertEquals(CodeActionKind.QuickFix, as.get(2).getKind(), "fix-all in the quick-fix menu, as ruff's");
            CodeAction fix = as.get(0);
            assertEquals(CodeActionKind.QuickFix, fix.getKind());
            assertTrue(fix.getIsPreferred());
            assertEquals("GM101", fix.getDiagnostics().get(0).getCode().getLeft());
            TextDocumentEdit tde = Texts.docEdit(fix.getEdit());
            assertEquals(1, tde.getTextDocument().getVersion());
            assertEquals(URI, tde.getTextDocument().getUri());
            assertTrue(h.wire().contains("\"annotationId\":\"graphmend.fix.safe\""), h.wire());
            assertTrue(tde.getEdits().get(0).getLeft() instanceof AnnotatedTextEdit);
            ChangeAnnotation ann = fix.getEdit().getChangeAnnotations().get("graphmend.fix.safe");
            // a safe fix applies when chosen: VS Code's refactor preview opened with every box unticked
            assertFalse(ann.getNeedsConfirmation());
            assertFalse(as.get(1).getEdit().getChangeAnnotations().values().iterator().next().getNeedsConfirmation(),
                    "a suppression comment changes no code");
            assertTrue(ann.getLabel().startsWith("Safe fix"), ann.getLabel());
            // applying it removes the diagnostic
            String fixed = Texts.apply(Texts.SAMPLE, Texts.edits(tde));
            h.change(URI, 2, null, fixed);
            assertEquals(List.of("GM102"), h.published(URI, 2).getDiagnostics().stream().map(d -> d.getCode().getLeft()).toList());

            CodeAction unsafe = titled(actions(h, range(7, 4, 7, 4), List.of(CodeActionKind.QuickFix)), "Skip while compiling (unsafe)");
            assertFalse(unsafe.getIsPreferred());
            ChangeAnnotation ua = unsafe.getEdit().getChangeAnnotations().values().iterator().next();
            assertTrue(ua.getLabel().startsWith("Unsafe fix"), ua.getLabel());
            assertTrue(ua.getDescription().contains("output is dropped"), ua.getDescription());
            assertTrue(ua.getNeedsConfirmation());
            // an unsafe fix alone is not applicable without unsafe-fixes: no fix-all entry for it
            assertTrue(actions(h, range(7, 4, 7, 4), List.of(CodeActionKind.QuickFix)).stream()
                    .noneMatch(a -> a.getTitle().startsWith("Fix all")));
        }
    }

    @Test
    void aRootWhoseBreaksAreCapturedOffersFullgraphAtItsDecorator() throws Exception {
        String text = "import torch\n\n\n@torch.compile\ndef step(x, active):\n    n = active.sum().item()\n    return x.sum(0) / n\n";
        try (Harness h = new Harness()) {
            h.initialize();
            h.open(URI, text, 1);
            assertEquals(List.of("GM301", "GM201"), h.published(URI, 1).getDiagnostics().stream()
                    .map(d -> d.getCode().getLeft()).toList());
            CodeAction a = titled(actions(h, range(3, 1, 3, 1), null), "Compile with `fullgraph=True` (unsafe)");
            assertEquals("GM301", a.getDiagnostics().get(0).getCode().getLeft());
            String fixed = Texts.apply(text, Texts.edits(Texts.docEdit(a.getEdit())));
            assertTrue(fixed.contains("@torch.compile(fullgraph=True)\n"), fixed);
            // compiled with fullgraph=True, the read is traced into the graph: nothing is left to report
            h.change(URI, 2, null, fixed);
            assertEquals(List.of(), h.published(URI, 2).getDiagnostics());
        }
    }

    @Test
    void disableForThisLineAddsOrExtendsTheComment() throws Exception {
        try (Harness h = new Harness()) {
            h.initialize();
            h.open(URI, Texts.SAMPLE, 1);
            h.published(URI, 1);
            CodeAction a = titled(actions(h, range(5, 7, 5, 18), null), "Disable GM101 for this line");
            String t1 = Texts.apply(Texts.SAMPLE, Texts.edits(Texts.docEdit(a.getEdit())));
            assertTrue(t1.contains("    if x.sum() > 0:  # graphmend: ignore[GM101]\n"), t1);
            h.change(URI, 2, null, t1);
            assertEquals(List.of("GM102"), h.published(URI, 2).getDiagnostics().stream().map(d -> d.getCode().getLeft()).toList());

            String t2 = Texts.SAMPLE.replace("print(\"hi\")", "print(\"#\")  # graphmend: ignore[GM201]");
            h.change(URI, 3, null, t2);
            h.published(URI, 3);
            CodeAction b = titled(actions(h, range(7, 4, 7, 4), null), "Disable GM102 for this line");
            String t3 = Texts.apply(t2, Texts.edits(Texts.docEdit(b.getEdit())));
            assertTrue(t3.contains("print(\"#\")  # graphmend: ignore[GM201, GM102]\n"), t3);
            h.change(URI, 4, null, t3);
            assertEquals(List.of("GM101"), h.published(URI, 4).getDiagnostics().stream().map(d -> d.getCode().getLeft()).toList());
        }
    }

    @Test
    void withoutAnnotationSupportEditsArePlainVersionedEdits() throws Exception {
        try (Harness h = new Harness(FakeFixes.engine())) {
            h.initialize(Harness.caps(false, false, false), null);
            h.open(URI, Texts.SAMPLE, 1);
            h.published(URI, 1);
            CodeAction a = titled(actions(h, range(5, 7, 5, 18), null), "Rewrite to torch.where");
            assertNull(a.getEdit().getChangeAnnotations());
            TextDocumentEdit tde = Texts.docEdit(a.getEdit());
            assertEquals(1, tde.getTextDocument().getVersion());
            assertFalse(h.wire().contains("annotationId"));
        }
    }

    @Test
    void lazyResolveWhenTheClientCanResolveEdits() throws Exception {
        try (Harness h = new Harness(FakeFixes.engine())) {
            h.initialize(Harness.caps(false, true, true), null);
            h.open(URI, Texts.SAMPLE, 1);
            h.published(URI, 1);
            List<CodeAction> as = actions(h, range(0, 0, 9, 0), null);
            for (CodeAction a : as) {
                assertNull(a.getEdit(), a.getTitle());
                assertNotNull(a.getData(), a.getTitle());
            }
            // asked for every kind with fixable problems in range: fix-all once, in the quick-fix menu
            assertEquals(1, as.stream().filter(a -> a.getTitle().startsWith("Fix all")).count(), as.toString());
            CodeAction fixAll = titled(as, "Fix all GraphMend problems in this file");
            CodeAction resolved = h.remote.getTextDocumentService().resolveCodeAction(titled(as, "Rewrite to torch.where"))
                    .get(10, TimeUnit.SECONDS);
            TextDocumentEdit tde = Texts.docEdit(resolved.getEdit());
            assertEquals("x.shape[0] > 0", tde.getEdits().get(0).getLeft().getNewText());
            CodeAction all = h.remote.getTextDocumentService().resolveCodeAction(fixAll).get(10, TimeUnit.SECONDS);
            String fixed = Texts.apply(Texts.SAMPLE, Texts.edits(Texts.docEdit(all.getEdit())));
            assertTrue(fixed.contains("if x.shape[0] > 0:") && fixed.contains("print(\"hi\")"), fixed); // safe only

            h.change(URI, 2, range(0, 0, 0, 0), "# changed\n");
            h.published(URI, 2);
            var ex = assertThrows(ExecutionException.class, () -> h.remote.getTextDocumentService()
                    .resolveCodeAction(titled(as, "Disable GM101 for this line")).get(10, TimeUnit.SECONDS));
            assertEquals(ResponseErrorCode.ContentModified.getValue(), ((ResponseErrorException) ex.getCause()).getResponseError().getCode());
            var bad = assertThrows(ExecutionException.class, () -> h.remote.getTextDocumentService()
                    .resolveCodeAction(new CodeAction("not ours")).get(10, TimeUnit.SECONDS));
            assertEquals(ResponseErrorCode.InvalidParams.getValue(), ((ResponseErrorException) bad.getCause()).getResponseError().getCode());
        }
    }

    @Test
    void fixAllSourceActionIsOneEditAndHonoursUnsafeSetting() throws Exception {
        try (Harness h = new Harness(FakeFixes.engine())) {
            h.initialize(Harness.caps(false, false, true), Harness.json("{\"unsafeFixes\": true}"));
            h.open(URI, Texts.SAMPLE, 1);
            h.published(URI, 1);
            List<CodeAction> as = actions(h, range(0, 0, 0, 0), List.of(CodeActionKind.SourceFixAll));
            assertEquals(1, as.size(), as.toString());
            assertEquals("source.fixAll.graphmend", as.get(0).getKind());
            List<TextEdit> edits = Texts.edits(Texts.docEdit(as.get(0).getEdit()));
            assertEquals(1, edits.size());
            String fixed = Texts.apply(Texts.SAMPLE, edits);
            assertTrue(fixed.contains("if x.shape[0] > 0:") && fixed.contains("    None\n"), fixed);
            // it applies an unsafe fix: the editor asks first
            assertTrue(as.get(0).getEdit().getChangeAnnotations().values().iterator().next().getNeedsConfirmation());
            // only quick fixes asked for: no fix-all
            assertTrue(actions(h, range(0, 0, 0, 0), List.of(CodeActionKind.QuickFix)).isEmpty());
        }
    }

    @Test
    void noFixAllActionWhenNothingCanBeFixed() throws Exception {
        try (Harness h = new Harness()) {
            h.initialize();
            // only a scalar read (GM201), for which no rewrite exists
            h.open(URI, "import torch\n\n@torch.compile\ndef f(x):\n    return x.item() + 1\n", 1);
            h.published(URI, 1);
            assertTrue(actions(h, range(0, 0, 0, 0), List.of(CodeActionKind.SourceFixAll)).isEmpty());
            assertTrue(actions(h, range(200, 0, 300, 0), null).isEmpty()); // out of range: nothing there
            var neg = assertThrows(ExecutionException.class, () -> actions(h, range(-1, 0, 0, 0), null));
            assertEquals(ResponseErrorCode.InvalidParams.getValue(), ((ResponseErrorException) neg.getCause()).getResponseError().getCode());
        }
    }

    @Test
    void fixAllCommandAppliesThroughTheClientAndRejectsStaleVersions() throws Exception {
        try (Harness h = new Harness(FakeFixes.engine())) {
            h.initialize();
            h.open(URI, Texts.SAMPLE, 1);
            h.published(URI, 1);
            var ws = h.remote.getWorkspaceService();
            JsonObject arg = Harness.json("{\"uri\": \"" + URI + "\", \"version\": 1}");
            Object r = ws.executeCommand(new ExecuteCommandParams("graphmend.fixAll", List.of(arg))).get(10, TimeUnit.SECONDS);
            assertTrue(r.toString().contains("applied=true"), r.toString());
            assertEquals(1, h.client.applied.size());
            TextDocumentEdit tde = Texts.docEdit(h.client.applied.get(0).getEdit());
            assertEquals(1, tde.getTextDocument().getVersion());
            assertTrue(Texts.apply(Texts.SAMPLE, Texts.edits(tde)).contains("x.shape[0] > 0"));

            JsonObject stale = Harness.json("{\"uri\": \"" + URI + "\", \"version\": 0}");
            var ex = assertThrows(ExecutionException.class,
                    () -> ws.executeCommand(new ExecuteCommandParams("graphmend.fixAll", List.of(stale))).get(10, TimeUnit.SECONDS));
            assertEquals(ResponseErrorCode.ContentModified.getValue(), ((ResponseErrorException) ex.getCause()).getResponseError().getCode());
            for (List<Object> args : List.<List<Object>>of(List.of(), List.of(Harness.json("{\"uri\": 3}")),
                    List.of(Harness.json("{\"uri\": \"file:///nope.py\", \"version\": 1}")))) {
                var bad = assertThrows(ExecutionException.class,
                        () -> ws.executeCommand(new ExecuteCommandParams("graphmend.fixAll", args)).get(10, TimeUnit.SECONDS));
                assertEquals(ResponseErrorCode.InvalidParams.getValue(), ((ResponseErrorException) bad.getCause()).getResponseError().getCode());
            }
            var unknown = assertThrows(ExecutionException.class,
                    () -> ws.executeCommand(new ExecuteCommandParams("graphmend.nope", List.of())).get(10, TimeUnit.SECONDS));
            assertEquals(ResponseErrorCode.InvalidParams.getValue(), ((ResponseErrorException) unknown.getCause()).getResponseError().getCode());
        }
    }

    @Test
    void hoverExplainsTheBreakAndTheFixes() throws Exception {
        String text = Texts.SAMPLE.replace("    return -x\n", "    n = x.item()\n    return -x\n");
        try (Harness h = new Harness(FakeFixes.engine())) {
            h.initialize();
            h.open(URI, text, 1);
            h.published(URI, 1);
            var tds = h.remote.getTextDocumentService();
            Hover hv = tds.hover(new HoverParams(new TextDocumentIdentifier(URI), new Position(5, 10))).get(10, TimeUnit.SECONDS);
            String md = hv.getContents().getRight().getValue();
            assertEquals("markdown", hv.getContents().getRight().getKind());
            assertTrue(md.contains("GM101") && md.contains("GB0170") && md.contains("Rewrite to torch.where (safe)"), md);
            assertTrue(md.contains("Compiled because of"), md);
            assertEquals(range(5, 7, 5, 18), hv.getRange());
            Hover scalar = tds.hover(new HoverParams(new TextDocumentIdentifier(URI), new Position(8, 10))).get(10, TimeUnit.SECONDS);
            assertTrue(scalar.getContents().getRight().getValue().contains("No fix offered: the scalar flows"), scalar.toString());
            assertNull(tds.hover(new HoverParams(new TextDocumentIdentifier(URI), new Position(0, 0))).get(10, TimeUnit.SECONDS));
            assertNull(tds.hover(new HoverParams(new TextDocumentIdentifier(URI), new Position(9999, 3))).get(10, TimeUnit.SECONDS));
            var neg = assertThrows(ExecutionException.class,
                    () -> tds.hover(new HoverParams(new TextDocumentIdentifier(URI), new Position(-1, 0))).get(10, TimeUnit.SECONDS));
            assertEquals(ResponseErrorCode.InvalidParams.getValue(), ((ResponseErrorException) neg.getCause()).getResponseError().getCode());
        }
    }
    @Test
    void hoverOnACompileRootTellsItsFullGraphReadiness() throws Exception {
        try (Harness h = new Harness()) {
            h.initialize();
            h.open(URI, Texts.SAMPLE, 1);
            h.published(URI, 1);
            var tds = h.remote.getTextDocumentService();
            Hover hv = tds.hover(new HoverParams(new TextDocumentIdentifier(URI), new Position(4, 4))).get(10, TimeUnit.SECONDS);
            assertNotNull(hv, "no hover on the root's def line");
            String md = hv.getContents().getRight().getValue();
            assertTrue(md.contains("**Compile root** function f") && md.contains("In this file: 2 breaks"), md);
            assertTrue(md.contains("fullgraph=True after fix: "), md);
            assertEquals(range(4, 0, 4, 9), hv.getRange());
            // the line above the root is no root
            assertNull(tds.hover(new HoverParams(new TextDocumentIdentifier(URI), new Position(2, 0))).get(10, TimeUnit.SECONDS));
        }
    }
}
