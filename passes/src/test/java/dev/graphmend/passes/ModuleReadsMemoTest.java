package dev.graphmend.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.ir.document.PythonDocument;
import dev.graphmend.ir.document.TextChange;
import dev.graphmend.ir.document.UniIR;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.model.Diagnostic;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The memo keeps a function whose fix read every compiled function's calls of a callee (the
 * deferral of {@code print} registers all of them) only while what it read is the same: an edit
 * elsewhere can make the registration illegal, or legal.
 */
class ModuleReadsMemoTest {
    private static final String TEXT = String.join("\n",
            "import torch",
            "",
            "",
            "@torch.compile",
            "def a(x):",
            "    print(\"a\", x)",
            "    return x + 1",
            "",
            "",
            "@torch.compile",
            "def b(x):",
            "    return x * 2",
            "",
            "",
            "def c(x):",
            "    print(\"c\", x)",
            "    return x",
            "");

    /** The print in a: its fix after the edit, analysed with the memo of the version before and from scratch. */
    private static void assertEditAgrees(TextChange edit) {
        AnalysisConfig config = AnalysisConfig.defaults().withTorchVersion("2.15");
        PythonDocument doc = PythonDocument.open(TEXT, 0);
        UniIR ir = UniIR.of(doc);
        AnalysisMemo memo = new AnalysisMemo();
        SourceModule v1 = new SourceModule("m.py", "m", false, ir);
        List<Diagnostic> before = Analyzer.analyze(new Project(List.of(v1), config), v1, memo).get(v1);
        doc = doc.apply(edit, 1);
        ir = ir.next(doc);
        SourceModule v2 = new SourceModule("m.py", "m", false, ir);
        List<Diagnostic> incremental = Analyzer.analyze(new Project(List.of(v2), config), v2, memo).get(v2);
        List<Diagnostic> scratch = Analyzer.analyze(new Project(List.of(v2), config), v2).get(v2);
        assertEquals(scratch, incremental, "after " + edit + " (" + memo.lastMode() + ")");
        assertNotEquals(fixOfA(before), fixOfA(scratch), "the edit should change what a's print is offered: " + fixOfA(scratch));
    }

    private static String fixOfA(List<Diagnostic> ds) {
        for (Diagnostic d : ds) {
            if (d.code().equals("GM102") && d.span().line() == 6) {
                return d.fixes().stream().map(Diagnostic.Fix::title).toList() + " / " + d.noFixReason();
            }
        }
        return "no diagnostic";
    }

    @Test
    void anotherCompiledFunctionThatNowPrintsWithAKeyword() {
        // b now prints with sep=: the registration would defer a call Dynamo's deferral rejects
        assertEditAgrees(TextChange.replace(11, 4, 11, 4, "print(\"b\", x, sep=\"\")\n    "));
    }

    @Test
    void aFunctionThatPrintsBecomesCompiled() {
        // b now calls c, which prints: c is compiled (inlined), and its print cannot be deferred
        assertEditAgrees(TextChange.replace(11, 11, 11, 16, "c(x) * 2"));
    }

    /** f prints helper's value; g prints with a nested format field, which only the deferral can take. */
    private static final String F_AND_G = String.join("\n",
            "@torch.compile",
            "def f(x):",
            "    y = helper()",
            "    print(y)",
            "    return x + 1",
            "",
            "",
            "@torch.compile",
            "def g(x):",
            "    print(f\"g {x:{3}}\")",
            "    return x * 2",
            "");

    private static final String HELPER_TEXT = String.join("\n",
            "import torch",
            "",
            "",
            "def helper():",
            "    # nothing",
            "    return 1",
            "",
            "") + "\n" + F_AND_G;

    /**
     * Applies the edits one by one to {@link #HELPER_TEXT}, each version analysed with the memo
     * and from scratch, and gives g's deferral (its fix or why none) in each version.
     */
    private static List<String> fixesOfGAfter(List<TextChange> edits) {
        AnalysisConfig config = AnalysisConfig.defaults().withTorchVersion("2.15");
        PythonDocument doc = PythonDocument.open(HELPER_TEXT, 0);
        UniIR ir = UniIR.of(doc);
        AnalysisMemo memo = new AnalysisMemo();
        List<String> fixOfG = new java.util.ArrayList<>();
        SourceModule v = new SourceModule("m.py", "m", false, ir);
        Analyzer.analyze(new Project(List.of(v), config), v, memo);
        for (int i = 0; i < edits.size(); i++) {
            doc = doc.apply(edits.get(i), i + 1);
            ir = ir.next(doc);
            v = new SourceModule("m.py", "m", false, ir);
            List<Diagnostic> incremental = Analyzer.analyze(new Project(List.of(v), config), v, memo).get(v);
            List<Diagnostic> scratch = Analyzer.analyze(new Project(List.of(v), config), v).get(v);
            assertEquals(scratch, incremental, "after " + edits.get(i) + " (" + memo.lastMode() + ")");
            String fix = "no diagnostic";
            for (Diagnostic d : scratch) {
                if (d.code().equals("GM102") && ir.lines().lineText(d.span().line()).contains("print(f\"g")) {
                    fix = d.fixes().stream().map(Diagnostic.Fix::title).toList() + " / " + d.noFixReason();
                }
            }
            fixOfG.add(fix);
        }
        return fixOfG;
    }

    /** helper's value becomes a tensor: f's print of it can be deferred, and so can g's. */
    private static final TextChange HELPER_RETURNS_A_TENSOR = TextChange.replace(5, 11, 5, 12, "torch.ones(2)");

    /**
     * f's print becomes deferrable when helper, whose value f prints, returns a tensor, though f's
     * text is the same and helper's never spells print. A kept entry of g, or a kept part of f's
     * digest, would keep g's deferral declined.
     */
    @Test
    void aChangedFunctionThatNeverSpellsTheCalleeCanChangeAnotherFunctionsCall() {
        List<String> fixOfG = fixesOfGAfter(List.of(TextChange.replace(4, 13, 4, 13, "."), HELPER_RETURNS_A_TENSOR));
        assertNotEquals(fixOfG.get(0), fixOfG.get(1), "helper's tensor should make g's deferral legal: " + fixOfG.get(1));
    }

    /**
     * Lines moved above f (a part kept for f counts its lines from f's own): g's declined deferral
     * names the line of f's print, which moves (g's print has no other safe fix: the in-graph print
     * takes no nested format field, so the reason is shown); then helper's tensor makes it legal.
     */
    @Test
    void partsKeptAcrossMovedLinesNameTheCallsNewLines() {
        List<String> fixOfG = fixesOfGAfter(List.of(TextChange.replace(0, 12, 0, 12, "\n\n"),
                TextChange.replace(6, 4, 6, 4, "x = 0\n    "), TextChange.replace(8, 11, 8, 12, "torch.ones(2)")));
        assertEquals(true, fixOfG.get(0).contains("line 14"), "g's deferral should name f's print at line 14: " + fixOfG.get(0));
        assertEquals(true, fixOfG.get(1).contains("line 15"), "g's deferral should name f's print at line 15: " + fixOfG.get(1));
        assertNotEquals(fixOfG.get(1), fixOfG.get(2), "helper's tensor should make g's deferral legal: " + fixOfG.get(2));
    }

    private static final String RANDOM_TEXT = String.join("\n",
            "import torch",
            "",
            "",
            "def helper():",
            "    return 1",
            "",
            "",
            "def other():",
            "    return torch.ones(2)",
            "",
            "") + "\n" + F_AND_G + String.join("\n",
            "",
            "",
            "@torch.compile",
            "def h(x):",
            "    y = other()",
            "    print(\"h\", x)",
            "    return x - 1",
            "");

    /** Values a helper may return: whether a print of it can be deferred depends on which. */
    private static final List<String> RETURNS = List.of("1", "torch.ones(2)", "x_unknown", "2.5", "torch.zeros(3)");
    /**
     * What h's print may print: a keyword argument makes it undeferrable; so does its y when other
     * returns no tensor (the same call, and reason, as f's print of helper's y).
     */
    private static final List<String> H_PRINTS = List.of("print(\"h\", x)", "print(\"h\", x, sep=\"\")", "print(y)", "print(\"h\")");

    /**
     * Random edits of a module whose deferral decisions read one another (helpers' values, other
     * functions' prints, lines moved above and between them), each version analysed with the
     * memo and from scratch: they must agree after every edit.
     */
    @Test
    void randomEditsOfFunctionsThatReadOneAnotherAgreeWithAFreshAnalysis() {
        AnalysisConfig config = AnalysisConfig.defaults().withTorchVersion("2.15");
        Random random = new Random(17);
        PythonDocument doc = PythonDocument.open(RANDOM_TEXT, 0);
        UniIR ir = UniIR.of(doc);
        AnalysisMemo memo = new AnalysisMemo();
        SourceModule v = new SourceModule("m.py", "m", false, ir);
        Analyzer.analyze(new Project(List.of(v), config), v, memo);
        int reused = 0;
        java.util.Set<String> declinedOrOffered = new java.util.HashSet<>();
        for (int step = 1; step <= 300; step++) {
            List<String> lines = List.of(doc.text().split("\n", -1));
            TextChange edit = randomEdit(lines, random);
            doc = doc.apply(edit, step);
            ir = ir.next(doc);
            v = new SourceModule("m.py", "m", false, ir);
            List<Diagnostic> incremental = Analyzer.analyze(new Project(List.of(v), config), v, memo).get(v);
            reused += memo.reused();
            List<Diagnostic> scratch = Analyzer.analyze(new Project(List.of(v), config), v).get(v);
            assertEquals(scratch, incremental, "step " + step + ": " + edit + " (" + memo.lastMode() + ")\n" + doc.text());
            for (Diagnostic d : scratch) {
                boolean defer = d.fixes().stream().anyMatch(x -> x.title().startsWith("Defer"));
                declinedOrOffered.add(d.code() + (defer ? " defer offered" : d.noFixReason() != null && d.noFixReason().contains("at line")
                        ? " defer declined naming a line" : " other"));
            }
        }
        // the edits must reach what they test: the memo used, the deferral offered and declined with a line
        assertTrue(reused > 300, "functions reused: " + reused);
        assertTrue(declinedOrOffered.contains("GM102 defer offered"), declinedOrOffered.toString());
        assertTrue(declinedOrOffered.contains("GM102 defer declined naming a line"), declinedOrOffered.toString());
    }

    /** One edit: a helper's value changed, h's print changed, or a line inserted or removed somewhere. */
    private static TextChange randomEdit(List<String> lines, Random random) {
        int kind = random.nextInt(5);
        if (kind == 0) {
            // a helper's return value
            List<Integer> returns = new java.util.ArrayList<>();
            for (int d = 0; d < lines.size(); d++) {
                if (!lines.get(d).startsWith("def helper") && !lines.get(d).startsWith("def other")) continue;
                int i = d + 1;
                while (!lines.get(i).startsWith("    return ")) i++;
                returns.add(i);
            }
            int i = returns.get(random.nextInt(returns.size()));
            return TextChange.replace(i, 11, i, lines.get(i).length(), RETURNS.get(random.nextInt(RETURNS.size())));
        }
        if (kind == 1) {
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).trim().startsWith("print(") && lines.get(i - 1).startsWith("    y = other()")) {
                    return TextChange.replace(i, 4, i, lines.get(i).length(), H_PRINTS.get(random.nextInt(H_PRINTS.size())));
                }
            }
        }
        List<Integer> inserted = new java.util.ArrayList<>();
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).endsWith("# inserted")) inserted.add(i);
        if (kind == 2 && !inserted.isEmpty()) {
            int i = inserted.get(random.nextInt(inserted.size()));
            return TextChange.replace(i, 0, i + 1, 0, "");
        }
        // a line inserted: a comment at module level, or a statement at the top of a function body
        List<Integer> bodies = new java.util.ArrayList<>();
        for (int i = 0; i + 1 < lines.size(); i++) if (lines.get(i).startsWith("def ")) bodies.add(i + 1);
        if (random.nextBoolean() || bodies.isEmpty()) {
            int i = random.nextInt(3) == 0 ? 1 : lines.size() - 1;
            return TextChange.replace(i, 0, i, 0, "# inserted\n");
        }
        int i = bodies.get(random.nextInt(bodies.size()));
        return TextChange.replace(i, 0, i, 0, "    w = 0  # inserted\n");
    }
}
