package dev.graphmend.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.graphmend.ir.document.PythonDocument;
import dev.graphmend.ir.document.TextChange;
import dev.graphmend.ir.document.UniIR;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.model.Diagnostic;
import java.util.List;
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

    private static final String HELPER_TEXT = String.join("\n",
            "import torch",
            "",
            "",
            "def helper():",
            "    # nothing",
            "    return 1",
            "",
            "",
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
}
