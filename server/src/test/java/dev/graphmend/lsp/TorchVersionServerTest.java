package dev.graphmend.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server follows the torch of the interpreter the editor selected ({@code interpreter}), tells
 * the client which version and where it came from ({@code graphmend/status}, a log line), names it
 * in the hover of a rule that follows torch-version, and warns once of a torch older than any the
 * rules were observed on (docs/lsp.md).
 */
class TorchVersionServerTest {
    /** A print (GM102: its in-graph fix needs 2.15) and a nonzero (GM202: the same on every release) in a compiled function. */
    static final String TEXT = "import torch\n\n\n@torch.compile\ndef f(x):\n    print(\"hi\", x)\n    n = x.nonzero()\n    return n\n";

    @TempDir
    Path dir;

    static Path venv(Path prefix, String torch) throws Exception {
        Files.createDirectories(prefix);
        Files.writeString(prefix.resolve("pyvenv.cfg"), "home = /usr/bin\n");
        Path info = Files.createDirectories(prefix.resolve("lib/python3.11/site-packages/torch-" + torch + ".dist-info"));
        Files.writeString(info.resolve("METADATA"), "Metadata-Version: 2.1\nName: torch\nVersion: " + torch + "\n");
        return info;
    }

    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long until = System.currentTimeMillis() + Harness.WAIT.toMillis();
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > until) throw new AssertionError("timed out waiting for " + what);
            Thread.sleep(10);
        }
    }

    static String hover(Harness h, String uri, int line, int character) throws Exception {
        Hover hv = h.remote.getTextDocumentService().hover(new HoverParams(new TextDocumentIdentifier(uri), new Position(line, character)))
                .get(10, TimeUnit.SECONDS);
        return hv.getContents().getRight().getValue();
    }

    @Test
    void theEditorsInterpreterGivesTheVersionTheStatusTheLogAndTheHover() throws Exception {
        Path project = Files.createDirectories(dir.resolve("project"));
        Files.writeString(project.resolve("pyproject.toml"), "[project]\nname = \"p\"\n");
        Path file = Files.writeString(project.resolve("m.py"), TEXT);
        String uri = file.toUri().toString();
        Path info = venv(dir.resolve("envs/a"), "2.10.0");
        String python = dir.resolve("envs/a/bin/python").toString();
        try (Harness h = new Harness()) {
            // as ruff-vscode sends it: a list whose first element is the path
            h.initialize(Harness.caps(false, false, true), Harness.json("{\"interpreter\": [\"" + python + "\"]}"),
                    project.toUri().toString());
            await(() -> !h.client.statuses.isEmpty(), "graphmend/status");
            JsonObject status = h.client.statuses.get(0);
            String source = "torch 2.10.0 installed for the editor's interpreter " + python;
            assertEquals("2.10", status.get("torchVersion").getAsString());
            assertEquals(source + " (" + info + ")", status.get("torchVersionSource").getAsString());
            assertEquals(2, status.size(), status.toString());
            await(() -> h.client.logs.stream().anyMatch(m -> m.getMessage().contains("torch-version 2.10 in " + project)
                    && m.getMessage().contains(source)), "the log line");

            h.open(uri, TEXT, 1);
            h.published(uri, 1);
            String print = hover(h, uri, 5, 6);
            assertTrue(print.contains("GM102") && print.contains("\n\ntorch-version 2.10 (" + source + ")"), print);
            assertFalse(print.contains("Print inside the graph"), "2.10 has no in-graph print: " + print);
            String nonzero = hover(h, uri, 6, 10);
            assertTrue(nonzero.contains("GM202") && !nonzero.contains("torch-version"), "GM202 does not follow torch-version: " + nonzero);

            // the editor's settings name another interpreter: a second status, and the analyses follow it
            venv(dir.resolve("envs/b"), "2.15.0");
            h.remote.getWorkspaceService().didChangeConfiguration(new DidChangeConfigurationParams(
                    Harness.json("{\"graphmend\": {\"interpreter\": \"" + dir.resolve("envs/b/bin/python") + "\"}}")));
            await(() -> h.client.statuses.size() == 2, "a second graphmend/status");
            assertEquals("2.15", h.client.statuses.get(1).get("torchVersion").getAsString());
            h.client.awaitPublished(x -> x.getUri().equals(uri));
            await(() -> {
                try {
                    return hover(h, uri, 5, 6).contains("Print inside the graph");
                } catch (Exception e) {
                    return false;
                }
            }, "the in-graph print fix under 2.15");
            // the same settings again: nothing new to say
            h.remote.getWorkspaceService().didChangeConfiguration(new DidChangeConfigurationParams(
                    Harness.json("{\"graphmend\": {\"interpreter\": \"" + dir.resolve("envs/b/bin/python") + "\"}}")));
            h.client.awaitPublished(x -> x.getUri().equals(uri));
            Thread.sleep(200);
            assertEquals(2, h.client.statuses.size(), h.client.statuses.toString());
        }
    }

    /** Without an interpreter or a setting: the .venv beside the project; the default otherwise, said as such. */
    @Test
    void aVenvBesideTheWorkspaceAndTheDefault() throws Exception {
        Files.writeString(dir.resolve("m.py"), TEXT);
        try (Harness h = new Harness()) {
            h.initialize(Harness.caps(false, false, true), null, dir.toUri().toString());
            await(() -> !h.client.statuses.isEmpty(), "graphmend/status");
            assertEquals("2.15", h.client.statuses.get(0).get("torchVersion").getAsString());
            assertEquals("default: the newest release the rules know", h.client.statuses.get(0).get("torchVersionSource").getAsString());
        }
        venv(dir.resolve(".venv"), "2.11.0");
        try (Harness h = new Harness()) {
            h.initialize(Harness.caps(false, false, true), null, dir.toUri().toString());
            await(() -> !h.client.statuses.isEmpty(), "graphmend/status");
            assertEquals("2.11", h.client.statuses.get(0).get("torchVersion").getAsString());
            assertTrue(h.client.statuses.get(0).get("torchVersionSource").getAsString()
                    .startsWith("torch 2.11.0 installed in " + dir.resolve(".venv") + " ("), h.client.statuses.toString());
        }
    }

    /** torch 2.6 in the project's venv: one warning, however many documents are analysed; the rules still follow it. */
    @Test
    void aTorchOlderThanAnyObservedIsWarnedOfOnce() throws Exception {
        venv(dir.resolve(".venv"), "2.6.0");
        Path a = Files.writeString(dir.resolve("a.py"), TEXT), b = Files.writeString(dir.resolve("b.py"), TEXT);
        try (Harness h = new Harness()) {
            h.initialize(Harness.caps(false, false, true), null, dir.toUri().toString());
            await(() -> !h.client.statuses.isEmpty(), "graphmend/status");
            h.open(a.toUri().toString(), TEXT, 1);
            h.published(a.toUri().toString(), 1);
            h.open(b.toUri().toString(), TEXT, 1);
            h.published(b.toUri().toString(), 1);
            h.change(a.toUri().toString(), 2, Harness.range(7, 12, 7, 12), " ");
            h.published(a.toUri().toString(), 2);
            WorkspaceTest.awaitShown(h, MessageType.Warning, "older than torch 2.8");
            List<String> shown = h.client.shown.stream().map(m -> m.getMessage()).filter(m -> m.contains("older than torch 2.8")).toList();
            assertEquals(1, shown.size(), shown.toString());
            assertEquals("GraphMend configuration: torch-version 2.6 (torch 2.6.0 installed in " + dir.resolve(".venv")
                    + ") is older than torch 2.8, the oldest release the rules were observed on; they follow 2.8's behaviour,"
                    + " which may differ from this release's", shown.get(0));
            assertEquals("2.6", h.client.statuses.get(0).get("torchVersion").getAsString());
        }
    }
}
