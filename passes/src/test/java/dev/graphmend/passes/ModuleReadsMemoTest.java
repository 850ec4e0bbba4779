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
 * deferral of {@code print} registers all of them) only while no changed function spells the
 * callee and the same functions are compiled: an edit elsewhere can make the registration illegal.
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

    /**
     * The digest is made of each compiled function's part, kept while what the part read stands:
     * f's print becomes deferrable when helper, whose value f prints, returns a tensor, though f's
     * text is the same. A part kept past that edit would keep g's deferral declined.
     */
    @Test
    void aKeptFunctionsPartIsMadeAgainWhenWhatItReadChanged() {
        String text = String.join("\n",
                "import torch",
                "",
                "",
                "def helper():",
                "    # print nothing",
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
                "    print(\"g\", x)",
                "    return x * 2",
                "");
        AnalysisConfig config = AnalysisConfig.defaults().withTorchVersion("2.15");
        PythonDocument doc = PythonDocument.open(text, 0);
        UniIR ir = UniIR.of(doc);
        AnalysisMemo memo = new AnalysisMemo();
        String[] fixOfG = new String[2];
        // an edit of helper's comment (it spells print: the digest is asked, and its parts kept), then of its value
        List<TextChange> edits = List.of(TextChange.replace(4, 19, 4, 19, "."), TextChange.replace(5, 11, 5, 12, "torch.ones(2)"));
        SourceModule v = new SourceModule("m.py", "m", false, ir);
        Analyzer.analyze(new Project(List.of(v), config), v, memo);
        for (int i = 0; i < edits.size(); i++) {
            doc = doc.apply(edits.get(i), i + 1);
            ir = ir.next(doc);
            v = new SourceModule("m.py", "m", false, ir);
            List<Diagnostic> incremental = Analyzer.analyze(new Project(List.of(v), config), v, memo).get(v);
            List<Diagnostic> scratch = Analyzer.analyze(new Project(List.of(v), config), v).get(v);
            assertEquals(scratch, incremental, "after " + edits.get(i) + " (" + memo.lastMode() + ")");
            for (Diagnostic d : scratch) {
                if (d.code().equals("GM102") && d.span().line() == 18) {
                    fixOfG[i] = d.fixes().stream().map(Diagnostic.Fix::title).toList() + " / " + d.noFixReason();
                }
            }
        }
        assertNotEquals(fixOfG[0], fixOfG[1], "helper's tensor should make g's deferral legal: " + fixOfG[1]);
    }
}
