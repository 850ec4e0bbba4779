package dev.graphmend.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.graphmend.cli.CheckCommandTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check} and {@code fix} follow the torch the project uses when nothing sets torch-version
 * (docs/configuration.md, "Where the torch version comes from"), and say where it came from: the
 * summary line, {@code --verbose}, the JSON's summary. A fake venv beside the project stands for an
 * installed torch.
 */
class TorchVersionCliTest {
    /** A print in a compiled function: torch 2.15 prints inside the graph, 2.10 cannot. */
    static final String PRINTS = CheckCommandTest.BREAKING;
    private static final String IN_GRAPH_PRINT = "Print inside the graph";

    static void venv(Path prefix, String torch) throws Exception {
        Files.createDirectories(prefix);
        Files.writeString(prefix.resolve("pyvenv.cfg"), "home = /usr/bin\n");
        Path info = Files.createDirectories(prefix.resolve("lib/python3.11/site-packages/torch-" + torch + ".dist-info"));
        Files.writeString(info.resolve("METADATA"), "Metadata-Version: 2.1\nName: torch\nVersion: " + torch + "\n");
    }

    /** The titles of the fixes each GM102 diagnostic of the JSON output offers. */
    static List<String> printFixes(Run json) {
        List<String> titles = new ArrayList<>();
        for (var f : JsonParser.parseString(json.out()).getAsJsonObject().getAsJsonArray("files")) {
            for (var d : f.getAsJsonObject().getAsJsonArray("diagnostics")) {
                if (!d.getAsJsonObject().get("code").getAsString().equals("GM102")) continue;
                for (var fx : d.getAsJsonObject().getAsJsonArray("fixes")) titles.add(fx.getAsJsonObject().get("title").getAsString());
            }
        }
        return titles;
    }

    /** The whole path: a .venv with torch 2.10.0 beside the project withdraws the in-graph print fix that 2.15 gets. */
    @Test
    void aVenvWithTorch210BesideTheProjectWithdrawsTheInGraphPrintFix(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("m.py"), PRINTS);
        Run newest = CheckCommandTest.run("check", "--output-format", "json", f.toString());
        assertTrue(printFixes(newest).stream().anyMatch(t -> t.startsWith(IN_GRAPH_PRINT)), newest.out());
        JsonObject summary = JsonParser.parseString(newest.out()).getAsJsonObject().getAsJsonObject("summary");
        assertEquals("2.15", summary.get("torchVersion").getAsString());
        assertEquals("default: the newest release the rules know", summary.get("torchVersionSource").getAsString());
        assertTrue(CheckCommandTest.run("fix", "--diff", f.toString()).out().contains("torch._higher_order_ops.print"));

        venv(dir.resolve(".venv"), "2.10.0");
        Run installed = CheckCommandTest.run("check", "--output-format", "json", f.toString());
        List<String> titles = printFixes(installed);
        assertFalse(titles.isEmpty(), installed.out());
        assertTrue(titles.stream().noneMatch(t -> t.startsWith(IN_GRAPH_PRINT)), installed.out());
        summary = JsonParser.parseString(installed.out()).getAsJsonObject().getAsJsonObject("summary");
        assertEquals("2.10", summary.get("torchVersion").getAsString());
        assertEquals("torch 2.10.0 installed in " + dir.resolve(".venv") + " ("
                + dir.resolve(".venv/lib/python3.11/site-packages/torch-2.10.0.dist-info") + ")", summary.get("torchVersionSource").getAsString());
        Run fix = CheckCommandTest.run("fix", "--diff", f.toString());
        assertFalse(fix.out().contains("torch._higher_order_ops.print"), fix.out());
        assertTrue(fix.out().contains("reorderable_logging_functions"), "2.10 defers the print instead: " + fix.out());
    }

    /** The summary line names a version that is not the default; --verbose says on stderr where it came from, in full. */
    @Test
    void theSummaryAndVerboseSayWhereTheVersionCameFrom(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("m.py"), PRINTS);
        Run plain = CheckCommandTest.run("check", f.toString());
        assertTrue(plain.out().contains("Found 2 diagnostics in 1 of 1 file.\n"), "the default is not named: " + plain.out());
        Run verbose = CheckCommandTest.run("check", "--verbose", f.toString());
        assertEquals("graphmend check: torch-version 2.15: default: the newest release the rules know\n", verbose.err());

        Path active = dir.resolve("envs/active");
        venv(active, "2.11.0+cpu");
        Map<String, String> env = Map.of("VIRTUAL_ENV", active.toString());
        Run r = CheckCommandTest.runIn(env, "check", f.toString());
        assertTrue(r.out().contains("Found 2 diagnostics in 1 of 1 file; torch-version 2.11 (torch 2.11.0+cpu installed in VIRTUAL_ENV="
                + active + ").\n"), r.out());
        assertEquals("", r.err());
        Run v = CheckCommandTest.runIn(env, "check", "-v", "--output-format", "concise", f.toString());
        assertEquals("graphmend check: torch-version 2.11: torch 2.11.0+cpu installed in VIRTUAL_ENV=" + active + " ("
                + active.resolve("lib/python3.11/site-packages/torch-2.11.0+cpu.dist-info") + ")\n", v.err());
        Run fixV = CheckCommandTest.runIn(env, "fix", "--diff", "--verbose", f.toString());
        assertTrue(fixV.err().startsWith("graphmend fix: torch-version 2.11: torch 2.11.0+cpu installed in VIRTUAL_ENV="), fixV.err());
        assertTrue(CheckCommandTest.run("check", "--help").out().contains("--verbose"));
        assertTrue(CheckCommandTest.run("fix", "--help").out().contains("--verbose"));
    }

    /** [tool.graphmend] torch-version beats the installed torch; --torch-version beats both. */
    @Test
    void aSettingBeatsTheEnvironmentAndTheFlagBeatsTheSetting(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("m.py"), PRINTS);
        venv(dir.resolve(".venv"), "2.10.0");
        Path pyproject = Files.writeString(dir.resolve("pyproject.toml"), "[tool.graphmend]\ntorch-version = \"2.15\"\n");
        Run setting = CheckCommandTest.run("check", "--output-format", "json", f.toString());
        assertTrue(printFixes(setting).stream().anyMatch(t -> t.startsWith(IN_GRAPH_PRINT)), setting.out());
        Run text = CheckCommandTest.run("check", f.toString());
        assertTrue(text.out().contains("; torch-version 2.15 (torch-version in " + pyproject + " [tool.graphmend]).\n"), text.out());
        Files.writeString(pyproject, "[tool.graphmend]\ntorch-version = \"2.10\"\n");
        Run flag = CheckCommandTest.run("check", "--output-format", "json", "--torch-version", "2.15", f.toString());
        assertTrue(printFixes(flag).stream().anyMatch(t -> t.startsWith(IN_GRAPH_PRINT)), flag.out());
        assertEquals("--torch-version", JsonParser.parseString(flag.out()).getAsJsonObject().getAsJsonObject("summary")
                .get("torchVersionSource").getAsString());
    }

    /** A torch older than 2.8, the oldest release the rules were observed on, is said once; it is still followed. */
    @Test
    void aTorchOlderThanAnyObservedIsWarnedOfOnce(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("m.py"), PRINTS);
        venv(dir.resolve(".venv"), "2.6.0");
        Run r = CheckCommandTest.run("check", f.toString());
        String warning = "graphmend check: warning: torch-version 2.6 (torch 2.6.0 installed in " + dir.resolve(".venv")
                + ") is older than torch 2.8, the oldest release the rules were observed on; they follow 2.8's behaviour,"
                + " which may differ from this release's\n";
        assertEquals(warning, r.err());
        assertTrue(r.out().contains("; torch-version 2.6 (torch 2.6.0 installed in " + dir.resolve(".venv") + ").\n"), r.out());
        Run fix = CheckCommandTest.run("fix", "--diff", f.toString());
        assertEquals(1, fix.err().split("older than torch 2.8", -1).length - 1, fix.err());
        assertEquals(1, CheckCommandTest.run("check", "--torch-version", "2.7", f.toString()).err().split("older than", -1).length - 1);
        assertEquals("", CheckCommandTest.run("check", "--torch-version", "2.8", f.toString()).err());
    }
}
