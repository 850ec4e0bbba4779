package dev.graphmend.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.model.RuleInfo;
import dev.graphmend.passes.model.Safety;
import dev.graphmend.passes.model.Severity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.jsonrpc.json.MessageJsonHandler;
import org.eclipse.lsp4j.jsonrpc.messages.NotificationMessage;
import org.eclipse.lsp4j.jsonrpc.services.ServiceEndpoints;
import org.eclipse.lsp4j.services.LanguageClient;
import org.junit.jupiter.api.Test;

/**
 * The diagnostics the server writes from their kept JSON ({@link MappedDiagnostic}), through Gson
 * and on the wire ({@link BufferedMessageConsumer}'s own path for a publish), against what LSP4J's
 * own reflective serialisation writes for the same objects: the same JSON value, for a real model
 * file's diagnostics, for strings that need escaping, fresh and from the cache.
 */
class MappedDiagnosticTest {
    private static final MessageJsonHandler FAST = new MessageJsonHandler(ServiceEndpoints.getSupportedMethods(LanguageClient.class),
            b -> b.registerTypeAdapterFactory(new MappedDiagnostic.Adapter()));
    private static final MessageJsonHandler LSP4J = new MessageJsonHandler(ServiceEndpoints.getSupportedMethods(LanguageClient.class));

    private static NotificationMessage notification(List<org.eclipse.lsp4j.Diagnostic> ds) {
        NotificationMessage n = new NotificationMessage();
        n.setMethod("textDocument/publishDiagnostics");
        n.setParams(new PublishDiagnosticsParams("file:///w/m \"x\".py", ds, 3));
        return n;
    }

    private static String publish(MessageJsonHandler h, List<org.eclipse.lsp4j.Diagnostic> ds) {
        return h.serialize(notification(ds));
    }

    /** The body the server's message writer puts on the wire (its own path for a publish of mapped diagnostics). */
    private static String onTheWire(List<org.eclipse.lsp4j.Diagnostic> ds) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        new BufferedMessageConsumer(out, FAST).consume(notification(ds));
        byte[] wire = out.toByteArray();
        String text = new String(wire, StandardCharsets.UTF_8);
        int body = text.indexOf("\r\n\r\n") + 4;
        String header = text.substring(0, body);
        int bodyBytes = wire.length - header.getBytes(StandardCharsets.UTF_8).length;
        assertEquals("Content-Length: " + bodyBytes + "\r\n\r\n", header);
        return text.substring(body);
    }

    /** LSP4J's reflective form of the same diagnostics (plain copies, so its adapter cannot take the fast path). */
    private static List<org.eclipse.lsp4j.Diagnostic> plain(List<org.eclipse.lsp4j.Diagnostic> ds) {
        List<org.eclipse.lsp4j.Diagnostic> out = new ArrayList<>();
        for (org.eclipse.lsp4j.Diagnostic d : ds) {
            org.eclipse.lsp4j.Diagnostic p = new org.eclipse.lsp4j.Diagnostic();
            p.setRange(d.getRange());
            p.setSeverity(d.getSeverity());
            p.setCode(d.getCode());
            p.setSource(d.getSource());
            p.setMessage(d.getMessage());
            p.setCodeDescription(d.getCodeDescription());
            p.setRelatedInformation(d.getRelatedInformation());
            p.setData(d.getData());
            out.add(p);
        }
        return out;
    }

    private static void assertSameJson(List<org.eclipse.lsp4j.Diagnostic> mapped) {
        String fast = publish(FAST, mapped);
        var expected = JsonParser.parseString(publish(LSP4J, plain(mapped)));
        assertEquals(expected, JsonParser.parseString(fast));
        assertEquals(expected, JsonParser.parseString(onTheWire(mapped)));
        // the fast path was taken: it writes the related information before the severity, LSP4J after
        if (mapped.get(0).getRelatedInformation() != null) {
            assertTrue(fast.indexOf("\"relatedInformation\"") < fast.indexOf("\"severity\""), fast);
        }
    }

    private static String modelFile() throws Exception {
        try (var in = GraphmendServer.class.getResourceAsStream("warmup/modeling_tiny_decoder.py")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Positions in the model file, with room below it for moved diagnostics. */
    private static Positions positions() throws Exception {
        return new Positions(new dev.graphmend.ir.source.LineIndex(modelFile() + "\n".repeat(10)), ClientCaps.of(null).encoding());
    }

    private static List<Diagnostic> modelFileDiagnostics() throws Exception {
        String text;
        try (var in = GraphmendServer.class.getResourceAsStream("warmup/modeling_tiny_decoder.py")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        SourceModule m = dev.graphmend.passes.ProjectLoader.module(Path.of("/w/modeling_tiny_decoder.py"), "modeling_tiny_decoder.py", text);
        List<Diagnostic> ds = Engine.DEFAULT.analyze(new Project(List.of(m), AnalysisConfig.defaults()), m, null).get(m);
        assertTrue(ds.size() >= 5, "the bundled model file has graph breaks: " + ds);
        return ds;
    }

    @Test
    void aModelFilesDiagnosticsAreWrittenAsLsp4jWritesThem() throws Exception {
        List<Diagnostic> ds = modelFileDiagnostics();
        Positions pos = positions();
        DiagnosticMapper.JsonCache cache = new DiagnosticMapper.JsonCache();
        List<org.eclipse.lsp4j.Diagnostic> first = DiagnosticMapper.toLsp(ds, pos, cache);
        assertSameJson(first);
        // the next version: every diagnostic moved two lines down, its compile root too; written from the cache
        List<Diagnostic> moved = new ArrayList<>();
        for (Diagnostic d : ds) moved.add(shifted(d, 2));
        List<org.eclipse.lsp4j.Diagnostic> second = DiagnosticMapper.toLsp(moved, pos, cache);
        assertSameJson(second);
        assertEquals(first.get(0).getRange().getStart().getLine() + 2, second.get(0).getRange().getStart().getLine());
        assertFalse(publish(FAST, first).equals(publish(FAST, second)), "the moved lines are written, not the cached ones");
    }

    private static Diagnostic shifted(Diagnostic d, int lines) {
        Span s = d.span();
        Span moved = new Span(s.line() + lines, s.col(), s.endLine() + lines, s.endCol());
        Diagnostic.Root r = d.root() == null ? null : new Diagnostic.Root(d.root().path(), d.root().line() + lines, d.root().description());
        return new Diagnostic(d.rule(), d.severity(), moved, d.message(), d.dynamoIds(), r, d.fixes(), d.noFixReason());
    }

    @Test
    void stringsThatNeedEscapingAreEscaped() throws Exception {
        RuleInfo rule = new RuleInfo("GM101", "data-dependent-branch", List.of("GB0170"), Severity.WARNING, "s");
        String message = "a \"quoted\" \\ back\tslash\nnewline </script> & é ∑ \u0001 %d";
        Diagnostic d = new Diagnostic(rule, Severity.ERROR, new Span(1, 0, 1, 4), message, List.of("GB0170"),
                new Diagnostic.Root("/w/a \"b\"%d.py", 7, "forward \"x\" %d"),
                List.of(new Diagnostic.Fix("Rewrite \"to\" torch.where", Safety.SAFE, null, null)), "because <\"no\">");
        Positions pos = positions();
        DiagnosticMapper.JsonCache cache = new DiagnosticMapper.JsonCache();
        assertSameJson(DiagnosticMapper.toLsp(List.of(d), pos, cache));
        assertSameJson(DiagnosticMapper.toLsp(List.of(d, d), pos, cache));
    }

    @Test
    void aMappedDiagnosticCannotBeChangedAndOthersAreWrittenByLsp4j() throws Exception {
        org.eclipse.lsp4j.Diagnostic d = DiagnosticMapper.toLsp(modelFileDiagnostics(), positions()).get(0);
        assertThrows(UnsupportedOperationException.class, () -> d.setMessage("changed"));
        assertThrows(UnsupportedOperationException.class, () -> d.setRange(new org.eclipse.lsp4j.Range()));
        List<org.eclipse.lsp4j.Diagnostic> plain = plain(List.of(d));
        assertEquals(publish(LSP4J, plain), publish(FAST, plain));
    }
}
