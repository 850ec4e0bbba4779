package dev.graphmend.passes.fix;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.passes.Analyzer;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.model.Diagnostic;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The defer fix moves a call after the graph; an output the graph makes in program order (an
 * in-graph record, warning or print) would then come before it. Found under torch 2.10 with the
 * predicated record between two deferred prints: the fix oracle saw the record first. Not a fix
 * fixture: the record's own in-graph rewrite would still change such a case.
 */
class DeferSideEffectOrderTest {
    private static Diagnostic printAt(String body, String torchVersion) {
        String text = String.join("\n",
                "import logging",
                "",
                "import torch",
                "",
                "logger = logging.getLogger(__name__)",
                "",
                "",
                "@torch.compile",
                "def f(x):",
                body,
                "    return x",
                "");
        SourceModule m = ProjectLoader.module(Path.of("m.py"), "m.py", text);
        AnalysisConfig config = AnalysisConfig.defaults().withTorchVersion(torchVersion);
        List<Diagnostic> ds = Analyzer.analyze(new Project(List.of(m), config)).get(m);
        return ds.stream().filter(d -> d.code().equals("GM102") && d.span().line() == 10).findFirst()
                .orElseThrow(() -> new AssertionError("no GM102 at line 10 in " + ds));
    }

    private static boolean deferred(Diagnostic d) {
        return d.fixes().stream().anyMatch(f -> f.title().startsWith("Defer "));
    }

    @Test
    void aPrintIsNotDeferredPastARecordTheGraphMakes() {
        // torch 2.10 has no in-graph print: the print would be deferred, the record stays in the graph
        Diagnostic alone = printAt("    print(\"x\", x)", "2.10");
        assertTrue(deferred(alone), "alone, the print is deferred: " + alone.noFixReason());
        Diagnostic beforeRecord = printAt("    print(\"x\", x)\n    logger.warning(\"checked\")", "2.10");
        assertFalse(deferred(beforeRecord));
        assertTrue(beforeRecord.noFixReason().contains("stays in the graph in program order"), beforeRecord.noFixReason());
        Diagnostic beforeOp = printAt("    print(\"x\", x)\n    torch.ops.graphmend.warn_if(x.sum() > 0, \"m\", \"UserWarning\", __name__, __file__, 12)", "2.10");
        assertFalse(deferred(beforeOp), "an in-graph operator call already there counts too");
        // a record that stays a graph break is no reason: deferred output still follows it in order
        Diagnostic beforeFString = printAt("    print(\"x\", x)\n    logger.warning(f\"checked {x.sum()}\")", "2.10");
        assertTrue(deferred(beforeFString), beforeFString.noFixReason());
    }
}
