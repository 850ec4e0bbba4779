package dev.graphmend.passes;

import dev.graphmend.passes.model.Diagnostic;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.ir.document.PythonDocument;
import dev.graphmend.ir.document.TextChange;
import dev.graphmend.ir.document.UniIR;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The language server's incremental analysis ({@link AnalysisMemo}) against a from-scratch one:
 * random edit sequences on our examples and fixtures, applied through the incremental document
 * model as an editor's keystrokes are, and after every edit the diagnostics with the memo must
 * equal those without it. Most edits keep the file valid (typing into or renaming an identifier
 * of a function body, so the memo is really used); some break the syntax or change the line
 * count (so it must also notice when it cannot be used).
 */
class IncrementalAnalysisTest {
    private static final Pattern SELF_ASSIGN = Pattern.compile("^\\s+self\\.\\w+ = ");
    private static final List<String> VALUES = List.of("None", "x", "1", "torch.ones(2)", "(x > 0).any()", "self",
            "nn.Linear(2, 2)", "x.item()", "(x, x)", "self.proj", "torch.zeros(2).sum() > 0");
    private static final Pattern IDENT = Pattern.compile("[A-Za-z_][A-Za-z_0-9]*");
    private static final Pattern NUMBER = Pattern.compile("(?<![A-Za-z_0-9.])\\d+(?![A-Za-z_0-9.])");
    private static final List<String> STATEMENTS = List.of("print(x)", "y = x.sum().item()", "if x.sum() > 0:\n            pass",
            "logger.info(\"step\")", "x = x + 1", "pass");
    /** A 12-line method, as a user pastes one into a class (its own break inside). */
    private static final List<String> PASTED = List.of(
            "    def pasted(self, x):",
            "        \"\"\"A method pasted in.\"\"\"",
            "        y = x * 2",
            "        if y.sum() > 0:",
            "            y = y - 1",
            "        print(\"pasted\", y)",
            "        z = y.mean()",
            "        for _ in range(2):",
            "            z = z + 1",
            "        w = z.item()",
            "        return y * w",
            "");
    private static final java.util.Set<String> KEYWORDS = java.util.Set.of("False", "None", "True", "and", "as", "assert",
            "async", "await", "break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for", "from",
            "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
            "while", "with", "yield");
    private static final List<String> FILES = List.of("../examples/modeling_tiny_bert.py",
            "../examples/modeling_tiny_decoder.py", "../examples/attention.py", "../examples/finetune_tiny_bert.py",
            "src/test/resources/fixtures/GM101.py", "src/test/resources/fixtures/GM102.py",
            "src/test/resources/fixtures/GM201.py", "src/test/resources/fixtures/regions.py",
            "src/test/resources/fixtures/roots.py",
            "src/test/resources/incremental/dependencies.py",
            // a package whose models import one shared module, as transformers' import its activations.py
            "src/test/resources/incremental/hub/__init__.py", "src/test/resources/incremental/hub/activations.py",
            "src/test/resources/incremental/hub/model_a.py", "src/test/resources/incremental/hub/model_b.py");

    @Test
    void memoisedAnalysisEqualsFromScratchAfterEveryEdit() throws IOException {
        AnalysisConfig config = AnalysisConfig.defaults();
        List<SourceModule> loaded = new ArrayList<>();
        for (String f : FILES) loaded.add(ProjectLoader.module(Path.of(f), f, Files.readString(Path.of(f))));
        Random rnd = new Random(20261129);
        int edits = 0, compared = 0, reused = 0, analysed = 0;
        java.util.Map<String, Integer> modes = new java.util.TreeMap<>();
        int bodyReused = 0, bodyAnalysed = 0, kept = 0, followsReused = 0, foreignReused = 0, replayed = 0;
        for (int k = 0; k < FILES.size(); k++) {
            for (int sequence = 0; sequence < 4; sequence++) {
                List<SourceModule> others = new ArrayList<>(loaded);
                SourceModule start = others.remove(k);
                PythonDocument doc = PythonDocument.open(start.ir().document().text(), 0);
                UniIR ir = UniIR.of(doc);
                AnalysisMemo memo = new AnalysisMemo();
                Project previous = null;
                String lastValid = doc.text();
                for (int step = 0; step < 60; step++) {
                    TextChange change;
                    if (!doc.errors().isEmpty() && rnd.nextInt(4) > 0) {
                        change = undo(doc.text(), lastValid); // as a user fixes what they broke
                    } else {
                        change = randomEdit(doc.text(), rnd);
                    }
                    if (change == null) continue;
                    doc = doc.apply(change, doc.version() + 1);
                    if (doc.errors().isEmpty()) lastValid = doc.text();
                    ir = ir.next(doc);
                    edits++;
                    SourceModule focus = new SourceModule(start.path(), start.moduleName(), start.isPackage(), ir);
                    List<SourceModule> all = new ArrayList<>(others);
                    all.add(focus);
                    // as the server does: each version's project built from the last one (Project.next)
                    Project project = previous == null ? new Project(all, config) : Project.next(previous, all, config);
                    previous = project;
                    kept += project.keptClasses();
                    List<Diagnostic> incremental = Analyzer.analyze(project, focus, memo).get(focus);
                    reused += memo.reused();
                    followsReused += memo.followsReused();
                    foreignReused += memo.foreignFollowsReused();
                    if (memo.regionsReplayed()) replayed++;
                    modes.merge(memo.lastMode().replaceAll("^\\d+ ", "N "), 1, Integer::sum);
                    if (memo.lastMode().contains("changed definitions")) {
                        bodyReused += memo.reused();
                        bodyAnalysed += memo.analysed();
                    }
                    analysed += memo.analysed();
                    List<Diagnostic> scratch = Analyzer.analyze(new Project(all, config), focus).get(focus);
                    if (!scratch.equals(incremental)) {
                        assertEquals(firstDifference(scratch, incremental), "", FILES.get(k) + ", sequence " + sequence
                                + ", edit " + step + " (" + memo.lastMode() + "): " + change + "\n--- text ---\n" + doc.text());
                    }
                    compared++;
                }
            }
        }
        System.out.printf("incremental analysis: %d edits, %d versions compared, functions reused %d, analysed %d; %s%n",
                edits, compared, reused, analysed, modes);
        System.out.printf("after edits of function bodies only: reused %d, analysed %d; discovery replayed the calls of %d functions"
                + " (%d of other files, kept unmoved); %d discoveries were the previous one, moved%n", bodyReused, bodyAnalysed,
                followsReused, foreignReused, replayed);
        assertTrue(compared >= 1500, "too few versions compared: " + compared);
        assertTrue(kept > compared, "the projects kept hardly a class of the last one: " + kept);
        // after an edit of function bodies, most functions must come from the memo (GM102's do not, by design)
        assertTrue(bodyReused > 2 * bodyAnalysed, "the memo was hardly used: reused " + bodyReused + ", analysed " + bodyAnalysed);
        assertTrue(followsReused > bodyReused, "discovery hardly replayed followed calls: " + followsReused);
        assertTrue(replayed > compared / 4, "discovery was hardly ever the previous one, moved: " + replayed + " of " + compared);
    }

    /**
     * A method pasted into a class, of a name a caller already looks up (it overrides the base's):
     * the class stands (no attribute comes or goes), but the caller's call now runs the pasted
     * method, whose print is reported; deleting it again restores the base's. Then a pasted method
     * that assigns an attribute of self, which the class's other methods read. Each version
     * against a from-scratch analysis.
     */
    @Test
    void pastedMethodThatACallerLooksUpIsFollowed() {
        String text = String.join("\n",
                "import torch",
                "import torch.nn as nn",
                "",
                "",
                "class Base(nn.Module):",
                "    def helper(self, x):",
                "        return x + 1",
                "",
                "",
                "class Child(Base):",
                "    def __init__(self):",
                "        super().__init__()",
                "        self.bias = 2",
                "",
                "    def forward(self, x):",
                "        y = self.helper(x) * self.scale",
                "        if self.scale.sum() > 0:",
                "            y = y + 1",
                "        return y",
                "",
                "    def other(self, x):",
                "        return x",
                "");
        String override = "    def helper(self, x):\n        print(x)\n        return x\n\n";
        String setter = "    def reset(self):\n        self.scale = torch.ones(2)\n\n";
        int other = 20; // the 0-based line of `def other`
        List<TextChange> edits = List.of(
                TextChange.replace(other, 0, other, 0, override),
                TextChange.replace(other, 0, other + 4, 0, ""),
                TextChange.replace(other, 0, other, 0, setter),
                TextChange.replace(other, 0, other + 3, 0, ""));
        List<String> seen = new ArrayList<>();
        for (Version v : editedVersions(List.of(), "child.py", "child", text, edits)) {
            seen.add(v.summary());
        }
        // the override's print is found, and the class stood for the edits that did not touch its attributes
        assertTrue(seen.get(1).contains("GM102@22"), "the pasted override's print was not reported: " + seen);
        assertTrue(!seen.get(2).contains("GM102"), "the print outlived the override: " + seen);
        assertTrue(seen.get(3).contains("GM101@17"), "the tensor attribute the pasted setter assigns was not seen: " + seen);
    }

    /**
     * A class whose definition an edit keeps has its facts carried to the new version
     * (Project.next); here the edit makes another class of the file an nn.Module, which changes
     * what the kept class's ModuleList holds, though the kept class saw no module class there
     * before. Its facts must be inferred again: the class it consulted registers it as a
     * dependent even when the answer was "not a module".
     */
    @Test
    void aClassThatBecomesAModuleChangesTheContainerOfAKeptClass() {
        String text = String.join("\n",
                "import torch",
                "import torch.nn as nn",
                "",
                "",
                "class Layer:",
                "    def forward(self, x):",
                "        print(x)",
                "        return x",
                "",
                "",
                "class Model(nn.Module):",
                "    def __init__(self):",
                "        super().__init__()",
                "        self.layers = nn.ModuleList([Layer() for _ in range(2)])",
                "",
                "    def forward(self, x):",
                "        for layer in self.layers:",
                "            x = layer.forward(x)",
                "        return x",
                "");
        List<TextChange> edits = List.of(
                TextChange.replace(4, 0, 4, 12, "class Layer(nn.Module):"),
                TextChange.replace(4, 0, 4, 23, "class Layer:"));
        List<String> seen = new ArrayList<>();
        for (Version v : editedVersions(List.of(), "model.py", "model", text, edits)) seen.add(v.summary());
        assertTrue(!seen.get(0).contains("GM102") && seen.get(1).contains("GM102@7") && !seen.get(2).contains("GM102"),
                "the print is compiled only while Layer is a module the Model holds: " + seen);
    }

    /**
     * Facts are carried only while the statements outside classes stand: here one outside any
     * class decides what {@code Layer} names (a function, then an assignment, with the class
     * between; the same names and binding counts), so the Model's attribute, and the root of the
     * print, change though neither class does.
     */
    @Test
    void aStatementOutsideClassesDecidesWhatAKeptClassHolds() {
        String text = String.join("\n",
                "import torch",
                "import torch.nn as nn",
                "",
                "",
                "def Layer():",
                "    return None",
                "",
                "",
                "class Layer(nn.Module):",
                "    def forward(self, x):",
                "        print(x)",
                "        return x",
                "",
                "",
                "class Model(nn.Module):",
                "    def __init__(self):",
                "        super().__init__()",
                "        self.layer = Layer()",
                "",
                "    def forward(self, x):",
                "        return self.layer(x)",
                "");
        List<TextChange> edits = List.of(
                TextChange.replace(4, 0, 5, 15, "Layer = None\n# gone"),
                TextChange.replace(4, 0, 5, 6, "def Layer():\n    return None"));
        List<Integer> rootLines = new ArrayList<>();
        for (Version v : editedVersions(List.of(), "model.py", "model", text, edits)) {
            assertEquals(1, v.diagnostics().size(), v.summary());
            rootLines.add(v.diagnostics().get(0).root().line());
        }
        // the class defined last: the Model's submodule, inlined in its forward; then a name
        // bound by an assignment, which resolves to no class: the Layer's forward is a root
        assertEquals(List.of(20, 10, 20), rootLines);
    }



    /**
     * A decorator of the edited module whose wrapper a forward of another module runs as: the
     * decorator stops returning its wrapper and returns it again. The forward's followed calls are
     * kept by the memo (they name the edited module's class), so they must be dropped when the
     * decorator's body changes, or the wrapper's break would stay lost. Each version against a
     * from-scratch analysis.
     */
    @Test
    void decoratorOfTheEditedModuleDecidesItsWrapper() {
        String deco = String.join("\n",
                "import torch",
                "from torch import nn",
                "",
                "",
                "def with_scale(forward):",
                "    def wrapper(self, x):",
                "        if x.mean() > 0:",
                "            x = x * 2",
                "        return forward(self, x)",
                "",
                "    return wrapper",
                "",
                "",
                "class Act(nn.Module):",
                "    def forward(self, x):",
                "        return x",
                "");
        String model = String.join("\n",
                "from torch import nn",
                "",
                "from pkg.acts import Act, with_scale",
                "",
                "",
                "class Mlp(nn.Module):",
                "    def __init__(self):",
                "        super().__init__()",
                "        self.act = Act()",
                "",
                "    @with_scale",
                "    def forward(self, x):",
                "        return self.act(x)",
                "");
        int ret = 10; // the 0-based line of `    return wrapper`
        List<TextChange> edits = List.of(
                TextChange.replace(ret, 11, ret, 18, "forward"),
                TextChange.replace(ret, 11, ret, 18, "wrapper"));
        List<String> seen = new ArrayList<>();
        SourceModule other = new SourceModule("pkg/model.py", "pkg.model", false, UniIR.of(PythonDocument.open(model, 0)));
        for (Version v : editedVersions(List.of(other), "pkg/acts.py", "pkg.acts", deco, edits)) {
            seen.add(v.summary());
        }
        assertTrue(seen.get(0).contains("GM101@7"), "the wrapper's branch was not reported: " + seen);
        assertTrue(!seen.get(1).contains("GM101@7"), "the branch outlived the wrapper: " + seen);
        assertTrue(seen.get(2).contains("GM101@7"), "the wrapper returned again was not followed: " + seen);
    }

    /**
     * A submodule class of the edited module loses its forward, then gets it back in an edit that
     * also changes what its {@code __init__} assigns to {@code self} (so the class is changed, not
     * merely one whose methods came or went). While the forward is gone, the holder's forward (in
     * another file) follows no call into it, and only looks the name up on the class: that lookup
     * must be invalidated when the class changes, or the restored forward stays unreached from
     * the holder and becomes a root of its own. Each version against a from-scratch analysis.
     */
    @Test
    void aLookupOnAChangedClassIsNotKept() {
        String acts = String.join("\n",
                "import torch",
                "from torch import nn",
                "",
                "",
                "class Act(nn.Module):",
                "    def __init__(self):",
                "        super().__init__()",
                "        self.scale = 2",
                "",
                "    def forward(self, x):",
                "        print(\"act\", x)",
                "        return x * self.scale",
                "");
        String model = String.join("\n",
                "from torch import nn",
                "",
                "from pkg.acts import Act",
                "",
                "",
                "class Mlp(nn.Module):",
                "    def __init__(self):",
                "        super().__init__()",
                "        self.act = Act()",
                "",
                "    def forward(self, x):",
                "        return self.act(x)",
                "");
        String forward = "\n\n    def forward(self, x):\n        print(\"act\", x)\n        return x * self.scale";
        int scale = 7; // the 0-based line of `self.scale = 2`
        List<TextChange> edits = List.of(
                // the forward removed: the class stands, its methods changed
                TextChange.replace(scale, 22, scale + 4, 32, ""),
                // restored, with another value of the attribute: the class changed
                TextChange.replace(scale, 21, scale, 22, "3" + forward));
        List<String> roots = new ArrayList<>();
        SourceModule other = new SourceModule("pkg/model.py", "pkg.model", false, UniIR.of(PythonDocument.open(model, 0)));
        for (Version v : editedVersions(List.of(other), "pkg/acts.py", "pkg.acts", acts, edits)) {
            roots.add(v.diagnostics().stream().filter(d -> d.code().equals("GM102"))
                    .map(d -> d.span().line() + "<" + d.root().path() + ":" + d.root().line()).toList().toString());
        }
        // the print is reached from the holder's forward whenever the class has one
        assertEquals(List.of("[11<pkg/model.py:11]", "[]", "[11<pkg/model.py:11]"), roots);
    }

    /**
     * The same for a function's diagnostics: a method of the edited module's class, which a
     * forward of the same module calls, comes with an edit that also changes what the class's
     * {@code __init__} assigns, and adds no line (no definition moves, so the entries are not
     * moved but looked up as they are). The caller's branch on the call's value is data-dependent
     * only once the method returns a tensor. Each version against a from-scratch analysis.
     */
    @Test
    void aLookupOnAChangedClassIsNotKeptForTheCallersDiagnostics() {
        String text = String.join("\n",
                "import torch",
                "from torch import nn",
                "",
                "",
                "class Act(nn.Module):",
                "    def __init__(self):",
                "        super().__init__()",
                "        self.scale = 2",
                "",
                "",
                "class Mlp(nn.Module):",
                "    def __init__(self):",
                "        super().__init__()",
                "        self.act = Act()",
                "",
                "    def forward(self, x):",
                "        if self.act(x).sum() > 0:",
                "            return x",
                "        return -x",
                "");
        int scale = 7; // the 0-based line of `self.scale = 2`; the blank line below it becomes the method
        List<TextChange> edits = List.of(
                TextChange.replace(scale, 21, scale + 1, 0, "3\n    def forward(self, x): return x * self.scale"),
                TextChange.replace(scale, 21, scale + 1, 47, "2\n"));
        List<String> seen = new ArrayList<>();
        for (Version v : editedVersions(List.of(), "acts.py", "acts", text, edits)) seen.add(v.summary());
        assertTrue(!seen.get(0).contains("GM101@17") && seen.get(1).contains("GM101@17") && !seen.get(2).contains("GM101@17"),
                "the branch is data-dependent only while Act has a forward: " + seen);
        assertTrue(!seen.get(1).contains("others moved"), "the edit moved definitions (the entries were moved, not looked up): " + seen);
    }

    /**
     * An edit of a method body that makes a class stop being a submodule: its forward, which only
     * the last phase of discovery made a root (its flag unknown), becomes a root of its own (every
     * parameter a tensor), though no function follows other calls than before. The previous
     * discovery must not be taken for this one. Each version against a from-scratch analysis.
     */
    @Test
    void anEditThatMakesASubmoduleARootIsNotReplayed() {
        String text = String.join("\n",
                "import torch",
                "from torch import nn",
                "",
                "",
                "class Gate(nn.Module):",
                "    def forward(self, x, flag):",
                "        if flag:",
                "            x = x + 1",
                "        return x",
                "",
                "",
                "class Block(nn.Module):",
                "    def __init__(self):",
                "        super().__init__()",
                "        self.gate = Gate()",
                "",
                "    def forward(self, x):",
                "        return x * 2",
                "");
        int assign = 14; // the 0-based line of `self.gate = Gate()`
        List<TextChange> edits = List.of(
                TextChange.replace(assign, 20, assign, 26, "None"),
                TextChange.replace(assign, 20, assign, 24, "Gate()"));
        List<String> seen = new ArrayList<>();
        for (Version v : editedVersions(List.of(), "gate.py", "gate", text, edits)) {
            seen.add(v.summary());
        }
        assertTrue(!seen.get(0).contains("GM101@7"), "a submodule's unknown flag was taken for a tensor: " + seen);
        assertTrue(seen.get(1).contains("GM101@7"), "the forward made a root of its own did not get tensor parameters: " + seen);
        assertTrue(!seen.get(2).contains("GM101@7"), "the forward stayed a root after its class was a submodule again: " + seen);
    }

    /**
     * An edit that changes which module holds which submodule (both {@code __init__} bodies in one
     * change) keeps the same roots and submodule forwards, but not their depths: the last phase of
     * discovery takes the forwards no parent calls outermost first, and the first of two that
     * call one helper names the helper's root. The previous order must not be taken for this one
     * (the project says whether its container index is the previous one's). Each version against
     * a from-scratch analysis.
     */
    @Test
    void anEditThatReordersSubmoduleForwardsIsNotReplayedInThePreviousOrder() {
        String text = String.join("\n",
                "import torch",
                "from torch import nn",
                "",
                "",
                "def helper(x):",
                "    if x.sum() > 0:",
                "        return x",
                "    return -x",
                "",
                "",
                "class B(nn.Module):",
                "    def forward(self, x):",
                "        return helper(x)",
                "",
                "",
                "class A(nn.Module):",
                "    def forward(self, x):",
                "        return helper(x)",
                "",
                "",
                "class Holder(nn.Module):",
                "    def __init__(self):",
                "        super().__init__()",
                "        self.b = B()",
                "",
                "    def forward(self, x):",
                "        return x",
                "",
                "",
                "class Outer(nn.Module):",
                "    def __init__(self):",
                "        super().__init__()",
                "        self.a = A()",
                "        self.h = Holder()",
                "",
                "    def forward(self, x):",
                "        return x",
                "");
        // from the B of `self.b = B()` (line 23) to the A of `self.a = A()` (line 32), the two swapped
        String[] lines = text.split("\n", -1);
        StringBuilder between = new StringBuilder(lines[23].substring(18));
        for (int l = 24; l < 32; l++) between.append('\n').append(lines[l]);
        between.append('\n').append(lines[32], 0, 17);
        List<TextChange> edits = List.of(
                TextChange.replace(23, 17, 32, 18, "A" + between + "B"),
                TextChange.replace(23, 17, 32, 18, "B" + between + "A"));
        List<String> roots = new ArrayList<>();
        for (Version v : editedVersions(List.of(), "order.py", "order", text, edits)) {
            roots.add(v.diagnostics().stream().filter(d -> d.span().line() == 6).map(d -> d.root().description()).toList().toString());
        }
        // the test is only worth its name if the order decides the helper's root
        assertTrue(roots.get(0).contains("subclass A ") && roots.get(1).contains("subclass B ") && roots.get(2).contains("subclass A "),
                "the helper's root should follow the outermost forward: " + roots);
    }

    /** One version of a scripted edit sequence: how the memo took it, and what was found (what a from-scratch analysis finds). */
    private record Version(String mode, List<Diagnostic> diagnostics) {
        /** The mode and each diagnostic as code@line. */
        String summary() {
            return mode + ": " + diagnostics.stream().map(d -> d.code() + "@" + d.span().line()).toList();
        }
    }

    /**
     * Analyses {@code text} as module {@code path} ({@code name}) beside {@code others}, then after
     * each edit in turn, with one memo and each project built from the previous one; asserts that
     * each version's diagnostics equal a from-scratch analysis of the same modules.
     */
    private static List<Version> editedVersions(List<SourceModule> others, String path, String name, String text,
                                                List<TextChange> edits) {
        AnalysisConfig config = AnalysisConfig.defaults();
        PythonDocument doc = PythonDocument.open(text, 0);
        UniIR ir = UniIR.of(doc);
        AnalysisMemo memo = new AnalysisMemo();
        Project previous = null;
        List<Version> versions = new ArrayList<>();
        for (int step = -1; step < edits.size(); step++) {
            if (step >= 0) {
                doc = doc.apply(edits.get(step), doc.version() + 1);
                ir = ir.next(doc);
            }
            SourceModule focus = new SourceModule(path, name, false, ir);
            List<SourceModule> all = new ArrayList<>(others);
            all.add(focus);
            Project project = previous == null ? new Project(all, config) : Project.next(previous, all, config);
            previous = project;
            List<Diagnostic> incremental = Analyzer.analyze(project, focus, memo).get(focus);
            List<Diagnostic> scratch = Analyzer.analyze(new Project(all, config), focus).get(focus);
            assertEquals(scratch, incremental, "after edit " + step + " (" + memo.lastMode() + "):\n" + doc.text());
            versions.add(new Version(memo.lastMode(), scratch));
        }
        return versions;
    }

    /** The first diagnostic one list has and the other has not, for a readable failure. */
    private static String firstDifference(List<Diagnostic> scratch, List<Diagnostic> incremental) {
        for (Diagnostic d : scratch) if (!incremental.contains(d)) return "from scratch only: " + d;
        for (Diagnostic d : incremental) if (!scratch.contains(d)) return "incremental only: " + d;
        return "the same diagnostics in another order or number";
    }

    /** The smallest one-range change from {@code now} back to {@code target}. */
    private static TextChange undo(String now, String target) {
        int p = 0;
        while (p < now.length() && p < target.length() && now.charAt(p) == target.charAt(p)) p++;
        int a = now.length(), b = target.length();
        while (a > p && b > p && now.charAt(a - 1) == target.charAt(b - 1)) { a--; b--; }
        int[] from = lineCol(now, p), to = lineCol(now, a);
        return TextChange.replace(from[0], from[1], to[0], to[1], target.substring(p, b));
    }

    private static int[] lineCol(String text, int offset) {
        int line = 0, start = 0;
        for (int i = 0; i < offset; i++) if (text.charAt(i) == '\n') { line++; start = i + 1; }
        return new int[] {line, offset - start};
    }

    /** An edit in a function body (an indented code line): mostly identifier typing and renames, some others. */
    private static TextChange randomEdit(String text, Random rnd) {
        String[] lines = text.split("\n", -1);
        List<Integer> body = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i];
            if (l.startsWith("        ") && !l.isBlank() && !l.strip().startsWith("#")) body.add(i);
        }
        if (body.isEmpty()) return null;
        int line = body.get(rnd.nextInt(body.size()));
        String l = lines[line];
        List<int[]> idents = new ArrayList<>();
        Matcher m = IDENT.matcher(l);
        while (m.find()) if (!KEYWORDS.contains(m.group())) idents.add(new int[] {m.start(), m.end()});
        int kind = rnd.nextInt(100);
        if (kind < 20) { // change what a function returns or what an attribute holds: what callers and methods read
            List<Integer> interfaces = new ArrayList<>();
            for (int i : body) if (lines[i].strip().startsWith("return ") || SELF_ASSIGN.matcher(lines[i]).find()) interfaces.add(i);
            if (!interfaces.isEmpty()) {
                int at = interfaces.get(rnd.nextInt(interfaces.size()));
                String t = lines[at];
                Matcher a = SELF_ASSIGN.matcher(t);
                int from = a.find() ? a.end() : t.indexOf("return ") + 7;
                return TextChange.replace(at, from, at, t.length(), VALUES.get(rnd.nextInt(VALUES.size())));
            }
        }
        kind = rnd.nextInt(100);
        if (kind < 8) { // Enter at the end of a body line: a blank line with the line's indentation, everything below moves
            String indent = l.substring(0, l.length() - l.stripLeading().length());
            return TextChange.replace(line, l.length(), line, l.length(), "\n" + indent);
        }
        if (kind < 14) { // a statement typed on a new line
            String indent = l.substring(0, l.length() - l.stripLeading().length());
            return TextChange.replace(line, 0, line, 0, indent + STATEMENTS.get(rnd.nextInt(STATEMENTS.size())) + "\n");
        }
        if (kind < 20) { // change a number literal (often inside an if's condition)
            Matcher num = NUMBER.matcher(l);
            List<int[]> nums = new ArrayList<>();
            while (num.find()) nums.add(new int[] {num.start(), num.end()});
            if (!nums.isEmpty()) {
                int[] at = nums.get(rnd.nextInt(nums.size()));
                return TextChange.replace(line, at[0], line, at[1], String.valueOf(rnd.nextInt(3)));
            }
        }
        if (kind < 26) { // paste a method into a class, before one of its methods; or remove a pasted one
            for (int i = 0; i < lines.length; i++) {
                if (lines[i].equals("    def pasted(self, x):")) {
                    return TextChange.replace(i, 0, i + PASTED.size(), 0, "");
                }
            }
            List<Integer> methods = new ArrayList<>();
            for (int i = 0; i < lines.length; i++) if (lines[i].startsWith("    def ")) methods.add(i);
            if (!methods.isEmpty()) {
                int at = methods.get(rnd.nextInt(methods.size()));
                while (at > 0 && lines[at - 1].startsWith("    @")) at--;
                return TextChange.replace(at, 0, at, 0, String.join("\n", PASTED) + "\n");
            }
        }
        kind = 20 + rnd.nextInt(80);
        if (kind < 50 && !idents.isEmpty()) { // type a letter at the end of a name, or delete its last letter
            int[] id = idents.get(rnd.nextInt(idents.size()));
            if (rnd.nextBoolean() && id[1] - id[0] > 1) return TextChange.replace(line, id[1] - 1, line, id[1], "");
            return TextChange.replace(line, id[1], line, id[1], String.valueOf((char) ('a' + rnd.nextInt(26))));
        }
        if (kind < 70 && idents.size() > 1) { // rename: one name of the line becomes another of the line
            int[] a = idents.get(rnd.nextInt(idents.size()));
            int[] b = idents.get(rnd.nextInt(idents.size()));
            return TextChange.replace(line, a[0], line, a[1], l.substring(b[0], b[1]));
        }
        if (kind < 87) { // any character anywhere in the line (often a syntax error)
            int col = rnd.nextInt(l.length() + 1);
            if (rnd.nextBoolean() && col < l.length()) return TextChange.replace(line, col, line, col + 1, "");
            return TextChange.replace(line, col, line, col, String.valueOf(" .()[]:,+x1_=".charAt(rnd.nextInt(13))));
        }
        if (kind < 94) return TextChange.replace(line, 0, line, 0, l.substring(0, l.length() - l.stripLeading().length())
                + "pass\n"); // a new line: everything below moves
        return TextChange.replace(line, 0, line + 1, 0, ""); // delete the line
    }
}
