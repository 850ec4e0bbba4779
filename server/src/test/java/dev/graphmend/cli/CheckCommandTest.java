package dev.graphmend.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code graphmend check}: output formats, exit codes, configuration, and clear errors for bad input. */
class CheckCommandTest {
    static final String BREAKING = "import torch\n\n@torch.compile\ndef f(x):\n    y = x * 2\n"
            + "    if y.sum() > 0:\n        print('é', y)\n    return y\n";

    record Run(int code, String out, String err) {}

    /** A command line run without the process's environment: a VIRTUAL_ENV of the one running the tests decides nothing. */
    static Run run(String... args) {
        return runIn(java.util.Map.of(), args);
    }

    /** A command line run with {@code environment} as the process's ({@code VIRTUAL_ENV}, {@code GRAPHMEND_PYTHON_PATH}). */
    static Run runIn(java.util.Map<String, String> environment, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = Main.run(args, new java.io.ByteArrayInputStream(new byte[0]), out, new PrintStream(err, true, StandardCharsets.UTF_8),
                environment);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static Run runWithInput(String input, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = Main.run(args, new java.io.ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), out,
                new PrintStream(err, true, StandardCharsets.UTF_8), java.util.Map.of());
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** exclude / extend-exclude / per-file-ignores / extend-select, in pyproject.toml and as flags, as ruff has them. */
    @Test
    void fileSelectionKeysAndFlags(@TempDir Path dir) throws Exception {
        for (String f : new String[] {"src/model.py", "src/gen/auto.py", "legacy/old.py", "tests/test_model.py", "build/lib/b.py"}) {
            Files.createDirectories(dir.resolve(f).getParent());
            Files.writeString(dir.resolve(f), BREAKING);
        }
        Files.writeString(dir.resolve("pyproject.toml"), "[tool.graphmend]\nextend-exclude = [\"legacy\", \"src/gen/**\"]\n"
                + "per-file-ignores = { \"tests/**\" = [\"GM102\"] }\n");
        Run r = run("check", dir.toString());
        assertTrue(r.out().contains("src/model.py:6") && r.out().contains("tests/test_model.py:6:8: GM101"), r.out());
        assertTrue(!r.out().contains("legacy") && !r.out().contains("src/gen") && !r.out().contains("build/lib"), r.out());
        assertTrue(!r.out().contains("tests/test_model.py:7:9: GM102"), "per-file-ignores: " + r.out());
        assertTrue(r.out().contains("in 2 of 2 files"), r.out());
        // a file named on the command line is read even when excluded
        assertTrue(run("check", dir.resolve("legacy/old.py").toString()).out().contains("GM101"));
        // the same on the command line, over the file's keys (patterns with a '/' are taken from the
        // working folder, as ruff takes command-line ones; these match names)
        Run flags = run("check", "--no-config", "--extend-exclude", "tests,gen", "--per-file-ignores", "model.py:GM101",
                "--select", "GM102", "--extend-select", "GM101", dir.toString());
        assertTrue(flags.out().contains("legacy/old.py:6:8: GM101") && flags.out().contains("src/model.py:7:9: GM102"), flags.out());
        assertTrue(!flags.out().contains("src/model.py:6:8: GM101") && !flags.out().contains("tests/"), flags.out());
        Run build = run("check", "--no-config", "--exclude", "legacy", dir.toString());
        assertTrue(build.out().contains("build/lib/b.py"), "--exclude replaces the default folders: " + build.out());
        assertEquals(2, run("check", "--per-file-ignores", "tests", dir.toString()).code());
        assertEquals(2, run("check", "--extend-select", "GM999", dir.toString()).code());
    }

    /**
     * --force-exclude, as ruff's: pre-commit names every staged file, and the project's exclusions
     * (its keys, the default folders) still leave some out; when nothing is left, no error.
     */
    @Test
    void forceExcludeAppliesExclusionsToNamedFiles(@TempDir Path dir) throws Exception {
        for (String f : new String[] {"src/model.py", "legacy/old.py", "build/lib/b.py"}) {
            Files.createDirectories(dir.resolve(f).getParent());
            Files.writeString(dir.resolve(f), BREAKING);
        }
        Files.writeString(dir.resolve("pyproject.toml"), "[tool.graphmend]\nextend-exclude = [\"legacy\"]\n");
        String model = dir.resolve("src/model.py").toString(), old = dir.resolve("legacy/old.py").toString(),
                built = dir.resolve("build/lib/b.py").toString();
        Run r = run("check", "--force-exclude", model, old, built);
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().contains("src/model.py:6") && !r.out().contains("old.py") && !r.out().contains("b.py"), r.out());
        assertTrue(r.out().contains("in 1 of 1 file"), r.out());
        Run none = run("check", "--force-exclude", old, built);
        assertEquals(0, none.code(), none.err());
        assertEquals("", none.out());
        Run fix = run("fix", "--force-exclude", "--diff", old);
        assertEquals(0, fix.code(), fix.err());
        assertEquals("", fix.out());
        // without the flag a named file is read, excluded or not
        assertTrue(run("check", old).out().contains("GM101"));
    }

    /**
     * The default text is ruff's full format: each diagnostic with its source line and carets under
     * the flagged part; concise (also `--format text`) is one line each.
     */
    @Test
    void fullOutputShowsTheLineAndConciseDoesNot(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("m.py"), BREAKING);
        Run full = run("check", f.toString());
        assertTrue(full.out().contains("6 |     if y.sum() > 0:\n  |        ^^^^^^^^^^^ GM101\n"), full.out());
        assertTrue(full.out().contains("7 |         print('é', y)\n  |         ^^^^^^^^^^^^^ GM102\n"), full.out());
        for (String concise : new String[] {"--output-format=concise", "--format=text"}) {
            Run c = run("check", concise, f.toString());
            assertTrue(!c.out().contains(" | ") && c.out().contains(":6:8: GM101"), c.out());
        }
        assertEquals(2, run("check", "--output-format", "pretty", f.toString()).code());
    }

    /** `-` reads standard input, as ruff does; --stdin-filename names it and finds its pyproject.toml. */
    @Test
    void aDashReadsStandardInput(@TempDir Path dir) throws Exception {
        Run r = runWithInput(BREAKING, "check", "-");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().contains("-:6:8: GM101") && r.out().contains("-:7:9: GM102"), r.out());
        Files.writeString(dir.resolve("pyproject.toml"), "[tool.graphmend]\nignore = [\"GM102\"]\n");
        String name = dir.resolve("pkg/model.py").toString();
        Run named = runWithInput(BREAKING, "check", "--stdin-filename", name, "-");
        assertTrue(named.out().contains(name + ":6:8: GM101") && !named.out().contains("GM102"), named.out());
        assertEquals(0, runWithInput("x = 1\n", "check", "-").code());
        assertEquals(2, runWithInput(BREAKING, "check", "-", name).code(), "'-' must be the only path");
        assertEquals(2, runWithInput(BREAKING, "fix", "-").code());
        assertTrue(run("check", "--help").out().contains("--stdin-filename"));
    }

    @Test
    void textOutputAndExitCodeOneWhenSomethingIsFound(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("m.py"), BREAKING);
        Run r = run("check", f.toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().contains(f + ":6:8: GM101 [warning]"), r.out());
        assertTrue(r.out().contains(f + ":7:9: GM102 [*] [warning]"), r.out());
        assertTrue(r.out().contains("Found 2 diagnostics in 1 of 1 file.\n"), r.out());
    }

    /**
     * As ruff: [*] on a diagnostic `graphmend fix` fixes, a closing line counting them and those
     * only --unsafe-fixes would fix; --statistics counts per code. The counts follow the fixes the
     * diagnostics carry (a safe fix; an unsafe one only with --unsafe-fixes).
     */
    @Test
    void fixableMarkersTheFixableLineAndStatistics(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("m.py"), BREAKING);
        Run json = run("check", "--format", "json", f.toString());
        int safe = 0, unsafeOnly = 0;
        var diags = new java.util.ArrayList<com.google.gson.JsonElement>();
        for (var file : com.google.gson.JsonParser.parseString(json.out()).getAsJsonObject().getAsJsonArray("files")) {
            file.getAsJsonObject().getAsJsonArray("diagnostics").forEach(diags::add);
        }
        assertEquals(2, diags.size(), json.out());
        for (var d : diags) {
            boolean s = false, u = false;
            for (var fx : d.getAsJsonObject().getAsJsonArray("fixes")) {
                if (fx.getAsJsonObject().get("safety").getAsString().equals("safe")) s = true; else u = true;
            }
            if (s) safe++; else if (u) unsafeOnly++;
        }
        assertTrue(safe > 0, json.out());
        Run r = run("check", f.toString());
        assertEquals(safe, r.out().split("\\[\\*\\] \\[", -1).length - 1, r.out());
        String line = "[*] " + safe + " fixable with `graphmend fix`" + (unsafeOnly > 0 ? " (" + unsafeOnly + " more with `--unsafe-fixes`)" : "") + ".\n";
        assertTrue(r.out().endsWith(line), r.out());
        Run u = run("check", "--unsafe-fixes", f.toString());
        assertTrue(u.out().endsWith("[*] " + (safe + unsafeOnly) + " fixable with `graphmend fix --unsafe-fixes`.\n"), u.out());
        Run st = run("check", "--statistics", f.toString());
        assertEquals(1, st.code());
        assertTrue(st.out().contains("1\tGM101\t") && st.out().contains("1\tGM102\t[*]\tside-effect-call"), st.out());
        assertTrue(!st.out().contains(f.toString()), "statistics instead of each diagnostic: " + st.out());
        assertEquals(2, run("check", "--statistics", "--format", "json", f.toString()).code());
        assertTrue(run("check", "--help").out().contains("--statistics"));
    }

    @Test
    void summaryCountsEachDiagnosticForEveryRootThatReachesItInItsModes(@TempDir Path dir) throws Exception {
        String text = String.join("\n",
                "import torch",
                "",
                "def shared(x):",
                "    print('x', x)",                 // GM102 in a helper both models call
                "    return x",
                "",
                "class Net(torch.nn.Module):",
                "    def forward(self, x):",
                "        if self.training:",
                "            if x.sum() > 0:",          // GM101, train mode only
                "                x = x * 2",
                "        return shared(x)",
                "",
                "class Other(torch.nn.Module):",
                "    def forward(self, x):",
                "        return shared(x)",
                "",
                "def build(flag):",
                "    net = Net()",
                "    net.eval()",
                "    a = torch.compile(net)",           // eval: the helper's print only
                "    b = torch.compile(Net())",         // built in training mode: both
                "    c = torch.compile(Other().train(flag))",  // either mode: the helper's print only
                "    return a, b, c",
                "");
        Path f = Files.writeString(dir.resolve("m.py"), text);
        Run r = run("check", "--summary", "--assume-compiled", "explicit", f.toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().contains("Full-graph readiness (3 of 3 compile roots with breaks"), r.out());
        assertTrue(r.out().contains(f + ":21 torch.compile(net): (eval mode) 1 break,"), r.out());
        assertTrue(r.out().contains(f + ":22 torch.compile(Net(...)): (train mode) 2 breaks,"), r.out());
        assertTrue(r.out().contains(f + ":23 torch.compile(Other(...).train(...)): 1 break,"), r.out());
        Run json = run("check", "--summary", "--format", "json", "--assume-compiled", "explicit", f.toString());
        JsonObject o = JsonParser.parseString(json.out()).getAsJsonObject();
        JsonArray roots = o.getAsJsonArray("roots");
        assertEquals(3, roots.size(), json.out());
        JsonObject a = roots.get(0).getAsJsonObject();
        assertEquals("[\"eval\"]", a.get("compiledIn").toString());
        assertEquals(1, a.getAsJsonObject("modes").getAsJsonObject("eval").get("breaks").getAsInt());
        assertTrue(!a.getAsJsonObject("modes").has("train"), json.out());
        // the helper's print lists all three roots; the training-only branch only the one built in training mode
        JsonArray ds = o.getAsJsonArray("files").get(0).getAsJsonObject().getAsJsonArray("diagnostics");
        for (var d : ds) {
            JsonObject x = d.getAsJsonObject();
            int reaching = x.getAsJsonArray("roots").size();
            if (x.get("code").getAsString().equals("GM102")) assertEquals(3, reaching, x.toString());
            if (x.get("code").getAsString().equals("GM101")) {
                assertEquals(1, reaching, x.toString());
                assertEquals("[\"train\"]", x.getAsJsonArray("roots").get(0).getAsJsonObject().get("modes").toString());
            }
        }
    }

    @Test
    void summaryAssumesWhatTheCallsOfTheCompiledObjectLeaveNone(@TempDir Path dir) throws Exception {
        String text = String.join("\n",
                "import torch",
                "",
                "class Net(torch.nn.Module):",
                "    def forward(self, x, pixels=None):",
                "        print('text', x.shape)",             // GM102 for every call
                "        if pixels is not None:",
                "            print('image', pixels.shape)",   // GM102: only when a call passes pixels
                "        return x",
                "",
                "text = torch.compile(Net().eval())",
                "image = torch.compile(Net().eval())",
                "",
                "def main(x):",
                "    return text(x), image(x, pixels=x)",
                "");
        Path f = Files.writeString(dir.resolve("m.py"), text);
        Run r = run("check", "--summary", "--assume-compiled", "explicit", f.toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().contains(f + ":10 torch.compile(Net(...).eval(...)): (eval mode, as called: pixels=None) 1 break,"), r.out());
        assertTrue(r.out().contains(f + ":11 torch.compile(Net(...).eval(...)): (eval mode) 2 breaks,"), r.out());
        // the image print names the root whose calls run it
        assertTrue(r.out().contains("print('image'") && r.out().contains("compiled via torch.compile(Net(...).eval(...)) at " + f + ":11"), r.out());
        Run json = run("check", "--summary", "--format", "json", "--assume-compiled", "explicit", f.toString());
        JsonArray roots = JsonParser.parseString(json.out()).getAsJsonObject().getAsJsonArray("roots");
        assertEquals(2, roots.size(), json.out());
        JsonObject textRoot = roots.get(0).getAsJsonObject();
        assertEquals("[\"pixels\"]", textRoot.get("noneAtItsCalls").toString());
        assertEquals(1, textRoot.get("breaks").getAsInt(), json.out());
        assertEquals("[]", roots.get(1).getAsJsonObject().get("noneAtItsCalls").toString());
        // the squiggle stays (another program may pass an image), listing only the root whose calls run it
        JsonArray ds = JsonParser.parseString(json.out()).getAsJsonObject().getAsJsonArray("files").get(0).getAsJsonObject()
                .getAsJsonArray("diagnostics");
        assertEquals(2, ds.size(), json.out());
        assertEquals(1, ds.get(1).getAsJsonObject().getAsJsonArray("roots").size(), json.out());
    }

    @Test
    void compiledViaNamesARootThatRunsTheLineInItsMode(@TempDir Path dir) throws Exception {
        String text = String.join("\n",
                "import torch",
                "",
                "class Net(torch.nn.Module):",
                "    def forward(self, x):",
                "        if self.training:",
                "            print('train', x)",            // reached by both roots' forward, run by the second only
                "        return x",
                "",
                "def build():",
                "    a = torch.compile(Net().eval())",
                "    b = torch.compile(Net())",
                "    return a, b",
                "");
        Path f = Files.writeString(dir.resolve("m.py"), text);
        Run r = run("check", "--assume-compiled", "explicit", f.toString());
        assertTrue(r.out().contains("compiled via torch.compile(Net(...)) at " + f + ":11"), r.out());
        Run json = run("check", "--format", "json", "--assume-compiled", "explicit", f.toString());
        JsonObject d = JsonParser.parseString(json.out()).getAsJsonObject().getAsJsonArray("files").get(0).getAsJsonObject()
                .getAsJsonArray("diagnostics").get(0).getAsJsonObject();
        assertEquals(10, d.getAsJsonObject("root").get("line").getAsInt(), d.toString()); // 0-based
    }

    @Test
    void summarySaysEachModeWhenARootCompiledInEitherBreaksInOne(@TempDir Path dir) throws Exception {
        String text = String.join("\n",
                "import torch",
                "",
                "class Net(torch.nn.Module):",
                "    def forward(self, x):",
                "        if not self.training:",
                "            return x",
                "        if x.sum() > 0:",                 // GM101, train mode only (eval returned above)
                "            x = x * 2",
                "        return x",
                "");
        Path f = Files.writeString(dir.resolve("m.py"), text);
        Run r = run("check", "--summary", f.toString());
        assertTrue(r.out().contains(f + ":4 forward of nn.Module subclass Net (assume-compiled = \"module-forward\"): "
                + "in eval mode: 0 breaks, 0 with a safe fix, 0 with an unsafe fix only, 0 without a fix; fullgraph=True after fix: yes; "
                + "in train mode: 1 break,"), r.out());
    }

    @Test
    void summaryTellsEachRootWhetherFullgraphCanSucceedAfterFix(@TempDir Path dir) throws Exception {
        String text = String.join("\n",
                "import torch",
                "",
                "@torch.compile",
                "def ready(x):",
                "    print('x', x)",       // the in-graph print: safe
                "    return x * 2",
                "",
                "@torch.compile",
                "def not_ready(x):",
                "    n = x.sum().item()",   // GM201 .item(): no fix
                "    print('n', n)",        // a Python float from .item(): the in-graph print declines
                "    return x * n",
                "",
                "@torch.compile",
                "def looping(x):",
                "    while x.sum() > 0:",  // GM101 on a while: no fix
                "        x = x - 1",
                "    return x",
                "");
        Path f = Files.writeString(dir.resolve("m.py"), text);
        Run r = run("check", "--summary", f.toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().contains("Full-graph readiness (3 of 3 compile roots with breaks"), r.out());
        assertTrue(r.out().contains(f + ":4 function ready decorated with @torch.compile: 1 break, 1 with a safe fix, "
                + "0 with an unsafe fix only, 0 without a fix; fullgraph=True after fix: yes\n"), r.out());
        // .item() is captured under fullgraph=True (torch 2.10 and 2.15); the print of its float needs the unsafe skip
        assertTrue(r.out().contains(f + ":9 function not_ready decorated with @torch.compile: 2 breaks, 0 with a safe fix, "
                + "1 with an unsafe fix only, 0 without a fix, 1 captured under fullgraph=True; fullgraph=True after fix: "
                + "with unsafe fixes (if no captured value decides a Python branch)"), r.out());
        assertTrue(r.out().contains(f + ":15 function looping decorated with @torch.compile: 1 break, 0 with a safe fix, "
                + "0 with an unsafe fix only, 1 without a fix; fullgraph=True after fix: no"), r.out());
        // before torch 2.10 nothing is counted as captured
        Run old = run("check", "--summary", "--torch-version", "2.9", f.toString());
        assertTrue(old.out().contains(":9 function not_ready decorated with @torch.compile: 2 breaks, 0 with a safe fix, "
                + "1 with an unsafe fix only, 1 without a fix; fullgraph=True after fix: no"), old.out());
        // the same rows in JSON: a "roots" array beside the diagnostics
        Run json = run("check", "--summary", "--format", "json", f.toString());
        assertEquals(1, json.code(), json.err());
        JsonArray roots = JsonParser.parseString(json.out()).getAsJsonObject().getAsJsonArray("roots");
        assertEquals(3, roots.size(), json.out());
        JsonObject notReady = roots.get(1).getAsJsonObject();
        assertEquals(8, notReady.get("line").getAsInt()); // 0-based, as a diagnostic's root
        assertEquals("function not_ready decorated with @torch.compile", notReady.get("description").getAsString());
        assertEquals(List.of(2, 0, 1, 0, 1), List.of(notReady.get("breaks").getAsInt(), notReady.get("safeFix").getAsInt(),
                notReady.get("unsafeFixOnly").getAsInt(), notReady.get("noFix").getAsInt(), notReady.get("captured").getAsInt()));
        assertEquals("with unsafe fixes", notReady.get("fullgraphAfterFix").getAsString());
        assertEquals("no", roots.get(2).getAsJsonObject().get("fullgraphAfterFix").getAsString());
        assertTrue(!JsonParser.parseString(run("check", "--format", "json", f.toString()).out()).getAsJsonObject().has("roots"));
        assertEquals(2, run("check", "--summary", "--format", "sarif", f.toString()).code());
        assertEquals(2, run("fix", "--summary", f.toString()).code());
    }

    @Test
    void exitZeroWhenClean(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("ok.py"), "import torch\n\n@torch.compile\ndef f(x):\n    return x * 2\n");
        Run r = run("check", f.toString());
        assertEquals(0, r.code());
        assertTrue(r.out().contains("No graph breaks found in 1 file."), r.out());
    }

    @Test
    void jsonFollowsTheSpecSchemaWithUtf16Columns(@TempDir Path dir) throws Exception {
        // a non-BMP character before the print makes UTF-8, code-point and UTF-16 columns differ
        Path f = Files.writeString(dir.resolve("m.py"), BREAKING.replace("        print('é', y)", "        s = '😀'; print(s, y)"));
        Run r = run("check", "--format", "json", f.toString());
        assertEquals(1, r.code(), r.err());
        JsonObject root = JsonParser.parseString(r.out()).getAsJsonObject();
        assertEquals(Set.of("version", "files", "errors", "summary"), root.keySet());
        assertEquals(0, root.getAsJsonArray("errors").size(), "nothing failed to be read");
        JsonObject file = root.getAsJsonArray("files").get(0).getAsJsonObject();
        assertEquals(f.toString(), file.get("path").getAsString());
        JsonArray ds = file.getAsJsonArray("diagnostics");
        assertEquals(2, ds.size(), r.out());
        JsonObject d = ds.get(0).getAsJsonObject();
        assertEquals(Set.of("code", "name", "severity", "range", "message", "dynamo", "root", "fixes", "noFixReason"), d.keySet());
        assertEquals("GM101", d.get("code").getAsString());
        assertEquals("data-dependent-branch", d.get("name").getAsString());
        assertEquals("warning", d.get("severity").getAsString());
        assertEquals("GB0170", d.getAsJsonArray("dynamo").get(0).getAsString());
        JsonObject start = d.getAsJsonObject("range").getAsJsonObject("start");
        assertEquals(5, start.get("line").getAsInt());
        assertEquals(7, start.get("character").getAsInt());
        assertEquals(3, d.getAsJsonObject("root").get("line").getAsInt()); // 0-based line of `def f`
        JsonObject print = ds.get(1).getAsJsonObject().getAsJsonObject("range").getAsJsonObject("start");
        // `        s = '😀'; ` is 8 + 4 + 4 (the emoji is 2 UTF-16 units) + 2 = 18 UTF-16 units
        assertEquals(18, print.get("character").getAsInt());
        JsonObject summary = root.getAsJsonObject("summary");
        assertEquals(1, summary.get("files").getAsInt());
        assertEquals(2, summary.get("diagnostics").getAsInt());
        assertEquals(0, summary.get("parseErrors").getAsInt());
    }

    @Test
    void sarifIsVersion210WithRulesAndOneBasedRegions(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("m.py"), BREAKING);
        Run r = run("check", "--format=sarif", f.toString());
        assertEquals(1, r.code());
        JsonObject log = JsonParser.parseString(r.out()).getAsJsonObject();
        assertEquals("2.1.0", log.get("version").getAsString());
        JsonObject run = log.getAsJsonArray("runs").get(0).getAsJsonObject();
        JsonArray rules = run.getAsJsonObject("tool").getAsJsonObject("driver").getAsJsonArray("rules");
        assertEquals(10, rules.size()); // GM000, the eight detectors (GM101 … GM205) and the root rule GM301
        JsonObject result = run.getAsJsonArray("results").get(0).getAsJsonObject();
        assertEquals("GM101", result.get("ruleId").getAsString());
        assertEquals("warning", result.get("level").getAsString());
        JsonObject region = result.getAsJsonArray("locations").get(0).getAsJsonObject()
                .getAsJsonObject("physicalLocation").getAsJsonObject("region");
        assertEquals(6, region.get("startLine").getAsInt());
        assertEquals(8, region.get("startColumn").getAsInt());
    }

    @Test
    void selectIgnoreAndPyprojectConfiguration(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("m.py"), BREAKING);
        assertTrue(run("check", "--select", "GM102", f.toString()).out().contains("Found 1 diagnostic in"));
        assertTrue(run("check", "--ignore", "GM1", f.toString()).out().contains("No graph breaks found"));
        Files.writeString(dir.resolve("pyproject.toml"), "[tool.graphmend]\nignore = [\"GM102\"]\nseverity = { GM101 = \"error\" }\n");
        Run r = run("check", f.toString());
        assertTrue(r.out().contains("GM101 [error]") && !r.out().contains("GM102"), r.out());
        // an unknown key is a warning naming the known ones; the rest of the table still applies
        Files.writeString(dir.resolve("pyproject.toml"), "[tool.graphmend]\nignroe = [\"GM102\"]\nseverity = { GM101 = \"error\" }\n");
        Run bad = run("check", f.toString());
        assertEquals(1, bad.code(), bad.err());
        assertTrue(bad.err().contains("graphmend check: warning: ") && bad.err().contains("unknown key 'ignroe' ignored (known: "), bad.err());
        assertTrue(bad.out().contains("GM101 [error]") && bad.out().contains("GM102"), bad.out());
        // a value of the wrong type is still an error: the table is not half-applied
        Files.writeString(dir.resolve("pyproject.toml"), "[tool.graphmend]\nignore = 5\n");
        assertEquals(2, run("check", f.toString()).code());
    }

    /** A code that names no rule would select or ignore nothing without a word: a usage error, as in pyproject.toml. */
    @Test
    void unknownRuleCodesOnTheCommandLineAreUsageErrors(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("m.py"), BREAKING);
        for (String[] args : new String[][] {{"check", "--select", "GM999"}, {"check", "--ignore=GM101,gm1o1"}, {"fix", "--select", "E501"}}) {
            String[] line = java.util.Arrays.copyOf(args, args.length + 1);
            line[args.length] = f.toString();
            Run r = run(line);
            assertEquals(2, r.code(), String.join(" ", line) + ": " + r.out() + r.err());
            String bad = args[args.length - 1].replaceAll(".*[=,]", "");
            assertTrue(r.err().contains("unknown rule code '" + bad + "'"), r.err());
            assertTrue(r.err().contains("known codes: GM000, GM101, GM102"), r.err());
            assertEquals("", r.out());
        }
        assertEquals(1, run("check", "--select", "gm1,GM201", f.toString()).code(), "prefixes and lower case are fine");
    }

    @Test
    void exitZeroAndQuiet(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("m.py"), BREAKING);
        Run zero = run("check", "--exit-zero", f.toString());
        assertEquals(0, zero.code(), zero.err());
        assertTrue(zero.out().contains("GM101") && zero.out().contains("Found 2 diagnostics"), zero.out());
        Run quiet = run("check", "--quiet", "--output-format", "concise", f.toString());
        assertEquals(1, quiet.code(), quiet.err());
        assertEquals(2, quiet.out().lines().count(), "the diagnostics only: " + quiet.out());
        assertTrue(!run("check", "-q", f.toString()).out().contains("Found "), "quiet full output: the diagnostics, no summary");
        assertTrue(quiet.out().startsWith(f + ":6:8: GM101"), quiet.out());
        Run both = run("check", "-q", "-e", "--output-format", "concise", f.toString());
        assertEquals(0, both.code());
        assertEquals(quiet.out(), both.out());
        Run clean = run("check", "-q", Files.writeString(dir.resolve("ok.py"), "x = 1\n").toString());
        assertEquals("", clean.out());
        assertEquals("", clean.err());
        assertEquals(2, run("check", "--exit-zero", dir.resolve("missing.py").toString()).code(), "errors still exit 2");
    }

    @Test
    void clearErrorsForMissingPathsEmptyFoldersAndUndecodableFiles(@TempDir Path dir) throws Exception {
        Run missing = run("check", dir.resolve("nope.py").toString());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("no such file or directory"), missing.err());

        Path empty = Files.createDirectory(dir.resolve("empty"));
        Run none = run("check", empty.toString());
        assertEquals(2, none.code());
        assertTrue(none.err().contains("no Python files"), none.err());

        Path good = Files.writeString(dir.resolve("good.py"), BREAKING);
        Path bad = Files.write(dir.resolve("bad.py"), new byte[] {'x', ' ', '=', ' ', '"', (byte) 0xff, '"', '\n'});
        Run mixed = run("check", bad.toString(), good.toString());
        assertEquals(2, mixed.code(), "an unreadable file is an I/O error");
        assertTrue(mixed.err().contains("bad.py: cannot decode line 1, column 6:"), mixed.err());
        assertTrue(mixed.err().contains("save the file as UTF-8, or declare its encoding"), "says what to do: " + mixed.err());
        assertTrue(mixed.out().contains("GM101"), "the other file is still checked: " + mixed.out());
        assertTrue(mixed.out().contains("in 1 of 1 file; 1 path could not be read (see above)."), mixed.out());
        // alone, it is not "no graph breaks in 0 files" as if all were well
        Run alone = run("check", bad.toString());
        assertEquals(2, alone.code());
        assertTrue(alone.out().contains("No graph breaks found in 0 files; 1 path could not be read"), alone.out());
        // the machine formats carry the I/O errors too
        Run json = run("check", "--format", "json", bad.toString(), good.toString(), dir.resolve("nope.py").toString());
        var errors = com.google.gson.JsonParser.parseString(json.out()).getAsJsonObject().getAsJsonArray("errors");
        assertEquals(2, errors.size(), json.out());
        java.util.Map<String, String> byPath = new java.util.HashMap<>();
        for (var e : errors) byPath.put(e.getAsJsonObject().get("path").getAsString(), e.getAsJsonObject().get("message").getAsString());
        assertTrue(byPath.get(bad.toString()).startsWith("cannot decode line 1"), json.out());
        assertEquals("no such file or directory", byPath.get(dir.resolve("nope.py").toString()), json.out());
        Run sarif = run("check", "--format", "sarif", bad.toString(), good.toString());
        var inv = com.google.gson.JsonParser.parseString(sarif.out()).getAsJsonObject().getAsJsonArray("runs").get(0)
                .getAsJsonObject().getAsJsonArray("invocations").get(0).getAsJsonObject();
        assertFalse(inv.get("executionSuccessful").getAsBoolean());
        var note = inv.getAsJsonArray("toolExecutionNotifications").get(0).getAsJsonObject();
        assertEquals("error", note.get("level").getAsString());
        assertTrue(note.getAsJsonObject("message").get("text").getAsString().contains("bad.py: cannot decode"), sarif.out());

        Run usage = run("check", "--format", "xml", good.toString());
        assertEquals(2, usage.code());
        assertTrue(usage.err().contains("--format must be full, concise, json or sarif"), usage.err());
    }

    @Test
    void syntaxErrorsAreGm000AndDoNotHideOtherBreaks(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("m.py"), BREAKING + "\ndef broken(:\n    pass\n");
        Run r = run("check", "--format", "json", f.toString());
        JsonObject root = JsonParser.parseString(r.out()).getAsJsonObject();
        assertTrue(root.getAsJsonObject("summary").get("parseErrors").getAsInt() >= 1);
        assertTrue(r.out().contains("\"GM000\"") && r.out().contains("\"GM101\"") && r.out().contains("\"GM102\""), r.out());
    }

    @Test
    void crossFileCompileRegionsNameTheirRoot(@TempDir Path dir) throws Exception {
        Path pkg = Files.createDirectory(dir.resolve("pkg"));
        Files.writeString(pkg.resolve("__init__.py"), "");
        Files.writeString(pkg.resolve("helpers.py"), "def log_stats(x):\n    print(x.mean())\n    return x\n");
        Files.writeString(pkg.resolve("model.py"), "import torch\nfrom .helpers import log_stats\n\n"
                + "def step(x):\n    return log_stats(x * 2)\n\ncompiled = torch.compile(step)\n");
        Run r = run("check", "--format", "json", pkg.toString());
        JsonObject helpers = null;
        for (var fe : JsonParser.parseString(r.out()).getAsJsonObject().getAsJsonArray("files")) {
            if (fe.getAsJsonObject().get("path").getAsString().endsWith("helpers.py")) helpers = fe.getAsJsonObject();
        }
        JsonObject d = helpers.getAsJsonArray("diagnostics").get(0).getAsJsonObject();
        assertEquals("GM102", d.get("code").getAsString());
        assertTrue(d.getAsJsonObject("root").get("path").getAsString().endsWith("model.py"), d.toString());
        assertEquals(6, d.getAsJsonObject("root").get("line").getAsInt());
    }

    @Test
    void rulePagesArePrinted() {
        Run r = run("rule", "gm102");
        assertEquals(0, r.code());
        assertTrue(r.out().startsWith("# GM102: side-effect-call"), r.out());
        assertEquals(2, run("rule", "GM999").code());
    }
}
