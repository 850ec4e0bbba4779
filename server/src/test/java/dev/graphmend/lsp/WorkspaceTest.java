package dev.graphmend.lsp;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.*;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Configuration layers, watched files, workspace indexing with progress, trace and logs. */
@Timeout(30)
class WorkspaceTest {
    @TempDir
    Path dir;

    static List<String> codes(PublishDiagnosticsParams p) {
        return p.getDiagnostics().stream().map(d -> d.getCode().getLeft()).toList();
    }

    static ClientCapabilities fullCaps() {
        ClientCapabilities c = Harness.caps(false, false, true);
        c.getWorkspace().setConfiguration(true);
        c.getWorkspace().setDidChangeWatchedFiles(new DidChangeWatchedFilesCapabilities(true));
        WindowClientCapabilities w = new WindowClientCapabilities();
        w.setWorkDoneProgress(true);
        c.setWindow(w);
        return c;
    }

    /** A window/showMessage and a publish travel separately: wait for the message instead of racing it. */
    static void awaitShown(Harness h, MessageType type, String text) throws InterruptedException {
        long until = System.currentTimeMillis() + 10_000;
        while (h.client.shown.stream().noneMatch(m -> m.getType() == type && m.getMessage().contains(text))
                && System.currentTimeMillis() < until) {
            Thread.sleep(20);
        }
        assertTrue(h.client.shown.stream().anyMatch(m -> m.getType() == type && m.getMessage().contains(text)),
                "no " + type + " message with '" + text + "': " + h.client.shown);
    }

    @Test
    void precedenceDefaultsThenPyprojectThenEditorSettings() throws Exception {
        Files.writeString(dir.resolve("pyproject.toml"), "[tool.graphmend]\nignore = [\"GM102\"]\nseverity = { GM101 = \"error\" }\n");
        Path file = dir.resolve("m.py");
        Files.writeString(file, Texts.SAMPLE);
        String uri = file.toUri().toString();
        try (Harness h = new Harness()) {
            h.initialize(Harness.caps(false, false, true), null);
            h.open(uri, Texts.SAMPLE, 1);
            PublishDiagnosticsParams p = h.published(uri, 1);
            assertEquals(List.of("GM101"), codes(p));
            assertEquals(DiagnosticSeverity.Error, p.getDiagnostics().get(0).getSeverity());
            // editor settings win over pyproject (no workspace/configuration support: settings come in the notification)
            h.remote.getWorkspaceService().didChangeConfiguration(new DidChangeConfigurationParams(
                    Harness.json("{\"graphmend\": {\"severity\": {\"GM101\": \"hint\"}, \"ignore\": [], \"trace\": {\"server\": \"off\"}}}")));
            p = h.client.awaitPublished(x -> x.getUri().equals(uri) && x.getDiagnostics().size() == 2);
            assertEquals(DiagnosticSeverity.Hint, p.getDiagnostics().get(0).getSeverity());
        }
    }

    /** The server reads exclude and per-file-ignores from the same pyproject.toml keys as `check`. */
    @Test
    void excludedDocumentsGetNoDiagnosticsAndPerFileIgnoresApply() throws Exception {
        Files.writeString(dir.resolve("pyproject.toml"), "[tool.graphmend]\nextend-exclude = [\"legacy\"]\n"
                + "per-file-ignores = { \"tests/**\" = [\"GM102\"] }\n");
        Path legacy = dir.resolve("legacy/m.py"), test = dir.resolve("tests/t.py"), src = dir.resolve("src/m.py");
        for (Path p : List.of(legacy, test, src)) {
            Files.createDirectories(p.getParent());
            Files.writeString(p, Texts.SAMPLE);
        }
        try (Harness h = new Harness()) {
            h.initialize(Harness.caps(false, false, true), null);
            h.open(src.toUri().toString(), Texts.SAMPLE, 1);
            assertEquals(List.of("GM101", "GM102"), codes(h.published(src.toUri().toString(), 1)));
            h.open(test.toUri().toString(), Texts.SAMPLE, 1);
            assertEquals(List.of("GM101"), codes(h.published(test.toUri().toString(), 1)));
            h.open(legacy.toUri().toString(), Texts.SAMPLE, 1);
            assertEquals(List.of(), codes(h.published(legacy.toUri().toString(), 1)));
        }
        List<Path> indexed = WorkspaceIndex.pythonFiles(List.of(dir), root -> {
            try {
                return dev.graphmend.passes.config.ConfigFile.nearest(root, new java.util.ArrayList<>()).files();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        assertEquals(List.of(src, test), indexed, "the index leaves out what check leaves out");
    }

    /** An unknown key in pyproject.toml dropped the whole table in the server, so its ignore was lost. */
    @Test
    void anUnknownPyprojectKeyIsAWarningAndTheRestOfTheTableApplies() throws Exception {
        Files.writeString(dir.resolve("pyproject.toml"), "[tool.graphmend]\nignore = [\"GM102\"]\nexclude-typo = true\n");
        String uri = Files.writeString(dir.resolve("m.py"), Texts.SAMPLE).toUri().toString();
        try (Harness h = new Harness()) {
            h.initialize(Harness.caps(false, false, true), null);
            h.open(uri, Texts.SAMPLE, 1);
            assertEquals(List.of("GM101"), codes(h.published(uri, 1)), "the table's ignore applies");
            awaitShown(h, MessageType.Warning, "unknown key 'exclude-typo' ignored");
        }
    }

    @Test
    void initializationOptionsAndWorkspaceConfigurationAndBadSettings() throws Exception {
        String uri = "file:///tmp/graphmend-lsp-test/cfg.py";
        try (Harness h = new Harness()) {
            h.client.configuration = Harness.json("{\"select\": [\"GM1\"]}");
            h.initialize(fullCaps(), Harness.json("{\"ignore\": [\"GM101\"]}"));
            h.open(uri, Texts.SAMPLE, 1);
            try {
                h.client.awaitPublished(x -> x.getUri().equals(uri) && codes(x).equals(List.of("GM102")));
            } catch (AssertionError e) {
                throw new AssertionError(h.stderr.toString() + h.client.logs, e);
            }
            assertFalse(h.client.configurationRequests.isEmpty());
            // the section changes: the server asks again and re-publishes
            h.client.configuration = Harness.json("{\"ignore\": [\"GM102\"]}");
            h.remote.getWorkspaceService().didChangeConfiguration(new DidChangeConfigurationParams(new com.google.gson.JsonObject()));
            // (a list in a later layer replaces the earlier one, as in the CLI)
            PublishDiagnosticsParams p = h.client.awaitPublished(x -> x.getUri().equals(uri) && codes(x).equals(List.of("GM101")));
            assertEquals(1, p.getVersion());
            // a bad value is reported and that layer skipped; analysis goes on
            h.client.configuration = Harness.json("{\"torchVersion\": \"banana\"}");
            h.remote.getWorkspaceService().didChangeConfiguration(new DidChangeConfigurationParams(new com.google.gson.JsonObject()));
            h.client.awaitPublished(x -> x.getUri().equals(uri) && codes(x).equals(List.of("GM102")));
            awaitShown(h, MessageType.Warning, "torch-version");
        }
    }

    @Test
    void crossFileRegionsFromTheIndexWithProgressAndWatchedFiles() throws Exception {
        Files.writeString(dir.resolve("helpers.py"), "def helper(x):\n    if x.sum() > 0:\n        return x\n    return -x\n");
        Path main = dir.resolve("main.py");
        Files.writeString(main, "import torch\nfrom helpers import helper\n\n\n@torch.compile\ndef run(x):\n    return helper(x)\n");
        Files.writeString(dir.resolve("pyproject.toml"), "[project]\nname = \"x\"\n");
        String uri = dir.resolve("helpers.py").toUri().toString();
        try (Harness h = new Harness()) {
            h.initialize(fullCaps(), null, dir.toUri().toString());
            h.server.indexed().get(20, TimeUnit.SECONDS);
            h.open(uri, Files.readString(dir.resolve("helpers.py")), 1);
            PublishDiagnosticsParams p = h.client.awaitPublished(x -> x.getUri().equals(uri) && codes(x).equals(List.of("GM101")));
            DiagnosticRelatedInformation rel = p.getDiagnostics().get(0).getRelatedInformation().get(0);
            assertEquals(main.toUri().toString(), rel.getLocation().getUri());
            assertEquals(5, rel.getLocation().getRange().getStart().getLine());
            // progress: created, begun, ended
            assertEquals(1, h.client.progressCreated.size());
            assertTrue(h.client.progress.get(0).getValue().getLeft() instanceof WorkDoneProgressBegin);
            assertTrue(h.client.progress.get(h.client.progress.size() - 1).getValue().getLeft() instanceof WorkDoneProgressEnd);
            // watchers registered dynamically
            Registration reg = h.client.registrations.get(0).getRegistrations().get(0);
            assertEquals("workspace/didChangeWatchedFiles", reg.getMethod());
            // main.py changes outside the editor: no longer compiled
            Files.writeString(main, "from helpers import helper\n\n\ndef run(x):\n    return helper(x)\n");
            h.remote.getWorkspaceService().didChangeWatchedFiles(new DidChangeWatchedFilesParams(
                    List.of(new FileEvent(main.toUri().toString(), FileChangeType.Changed))));
            h.client.awaitPublished(x -> x.getUri().equals(uri) && codes(x).isEmpty());// pyproject.toml changes: configuration is re-read
            Files.writeString(main, "import torch\nfrom helpers import helper\n\n\n@torch.compile\ndef run(x):\n    return helper(x)\n");
            h.remote.getWorkspaceService().didChangeWatchedFiles(new DidChangeWatchedFilesParams(
                    List.of(new FileEvent(main.toUri().toString(), FileChangeType.Changed))));
            h.client.awaitPublished(x -> x.getUri().equals(uri) && codes(x).equals(List.of("GM101")));
            Files.writeString(dir.resolve("pyproject.toml"), "[tool.graphmend]\nignore = [\"GM101\"]\n");
            h.remote.getWorkspaceService().didChangeWatchedFiles(new DidChangeWatchedFilesParams(
                    List.of(new FileEvent(dir.resolve("pyproject.toml").toUri().toString(), FileChangeType.Changed))));
            h.client.awaitPublished(x -> x.getUri().equals(uri) && codes(x).isEmpty());
        }
        }

    /**
     * A workspace whose only file is open in the editor (as VS Code opens model.py while the index
     * is built): the log counted only the files read from disk and said "indexed 0 Python files".
     */
    @Test
    void indexingCountsTheFilesOpenInTheEditor() throws Exception {
        Path model = dir.resolve("model.py"), other = dir.resolve("other.py");
        Files.writeString(model, Texts.SAMPLE);
        Files.writeString(other, "x = 1\n");
        Files.write(dir.resolve("latin1.py"), new byte[] {'s', ' ', '=', ' ', '"', (byte) 0xe9, '"', '\n'});
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        Session session = new Session(new Log(new java.io.PrintStream(err, true)));
        session.folders = List.of(dir);
        String uri = model.toUri().toString();
        session.docs.put(new OpenDocument(uri, new Snapshot(uri, model, 1,
                dev.graphmend.ir.document.UniIR.of(dev.graphmend.ir.document.PythonDocument.open(Texts.SAMPLE, 1)))));
        AnalysisScheduler scheduler = new AnalysisScheduler(session, Engine.DEFAULT, new AnalysisScheduler.Delays(0, 0),
                new dev.graphmend.passes.AnalysisHost());
        WorkspaceIndexing indexing = new WorkspaceIndexing(session, scheduler, false);
        indexing.start();
        indexing.indexed().get(30, TimeUnit.SECONDS);
        WorkspaceIndex index = session.index;
        assertFalse(index.contains(model), "an open document is read from its buffer, not from disk");
        assertTrue(index.contains(other));
        assertTrue(err.toString().contains("indexed 2 Python files (1 open in the editor, 1 not readable as UTF-8 Python)"),
                err.toString());
    }

    @Test
    void traceAndLogMessages() throws Exception {
        String uri = "file:///tmp/graphmend-lsp-test/t.py";
        try (Harness h = new Harness()) {
            h.initialize();
            h.remote.setTrace(new SetTraceParams("verbose"));
            h.open(uri, Texts.SAMPLE, 1);
            h.published(uri, 1);
            long end = System.currentTimeMillis() + 5000;
            while (h.client.traces.isEmpty() && System.currentTimeMillis() < end) Thread.sleep(10);
            assertTrue(h.client.traces.get(0).getMessage().contains("analysed"), h.client.traces.toString());
            assertNotNull(h.client.traces.get(0).getVerbose());
            assertTrue(h.client.logs.stream().anyMatch(m -> m.getMessage().startsWith("initialize")));
            assertTrue(h.stderr.toString().contains("initialize"));
        }
    }

    @Test
    void exitCodes() throws Exception {
        try (Harness h = new Harness()) {
            h.initialize();
            h.remote.exit();
            assertEquals(1, h.server.onExit().get(5, TimeUnit.SECONDS));
        }
        try (Harness h = new Harness()) {
            h.initialize();
            h.remote.shutdown().get(5, TimeUnit.SECONDS);
            h.remote.exit();
            assertEquals(0, h.server.onExit().get(5, TimeUnit.SECONDS));
        }
    }
}
