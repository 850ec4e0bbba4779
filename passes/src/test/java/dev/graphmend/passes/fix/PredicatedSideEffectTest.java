package dev.graphmend.passes.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
 * The predicated side effect's declines (GM101): each shape a fix fixture cannot hold alone, because
 * GM102's own rewrite of the call would still change the case. The rewrites themselves are in
 * fixes/GM101_predicated_side_effect.py, judged under real Dynamo.
 */
class PredicatedSideEffectTest {
    private static final String HEAD = String.join("\n",
            "import logging",
            "import warnings",
            "",
            "import torch",
            "",
            "logger = logging.getLogger(__name__)",
            "",
            "",
            "@torch.compile",
            "def f(x):",
            "");

    /** The GM101 diagnostic of the body's first `if`, with the predicated rewrite's title among its fixes or not. */
    private static Diagnostic branch(String body, AnalysisConfig config) {
        SourceModule m = ProjectLoader.module(Path.of("m.py"), "m.py", HEAD + body + "    return x\n");
        List<Diagnostic> ds = Analyzer.analyze(new Project(List.of(m), config)).get(m);
        return ds.stream().filter(d -> d.code().equals("GM101")).findFirst()
                .orElseThrow(() -> new AssertionError("no GM101 in " + ds));
    }

    private static boolean offered(Diagnostic d) {
        return d.fixes().stream().anyMatch(f -> f.title().startsWith("Warn or log inside the graph when"));
    }

    @Test
    void aWarningOrARecordUnderAOneElementConditionIsPredicated() {
        AnalysisConfig c = AnalysisConfig.defaults();
        assertTrue(offered(branch("    if (x < 0).any():\n        warnings.warn(\"negative\")\n", c)));
        assertTrue(offered(branch("    if x.sum() > 0:\n        logger.warning(\"positive\")\n", c)));
        assertTrue(offered(branch("    if not torch.isfinite(x).all():\n        logger.warning_once(\"not finite\")\n", c)));
    }

    @Test
    void declinesSayWhy() {
        AnalysisConfig c = AnalysisConfig.defaults();
        Diagnostic orElse = branch("    if (x < 0).any():\n        warnings.warn(\"a\")\n    else:\n        warnings.warn(\"b\")\n", c);
        assertFalse(offered(orElse));
        assertNotNull(orElse.noFixReason());
        assertTrue(orElse.noFixReason().contains("else branch"), orElse.noFixReason());

        Diagnostic count = branch("    if (x < 0).sum():\n        warnings.warn(\"negative\")\n", c);
        assertFalse(offered(count));
        assertTrue(count.noFixReason().contains("not a boolean tensor"), count.noFixReason());

        Diagnostic fstring = branch("    if (x < 0).any():\n        logger.warning(f\"negative: {x.min()}\")\n", c);
        assertFalse(offered(fstring));
        assertTrue(fstring.noFixReason().contains("has no in-graph form"), fstring.noFixReason());

        Diagnostic two = branch("    if (x < 0).any():\n        warnings.warn(\"a\")\n        warnings.warn(\"b\")\n", c);
        assertFalse(offered(two));

        Diagnostic old = branch("    if (x < 0).any():\n        warnings.warn(\"negative\")\n", c.withTorchVersion("2.8"));
        assertFalse(offered(old), "the in-graph warning is known from torch 2.10");
        assertTrue(old.noFixReason().contains("torch 2.10"), old.noFixReason());
    }

    @Test
    void thePredicatedCallNamesTheLineItStartsOn() {
        String call = PredicatedSideEffect.predicatedCall(
                "torch.ops.graphmend.warn(\"m\", \"UserWarning\", __name__, __file__, 41)",
                PredicatedSideEffect.Effect.WARN, "(x < 0).any()", 40);
        assertEquals("torch.ops.graphmend.warn_if((x < 0).any(), \"m\", \"UserWarning\", __name__, __file__, 40)", call);
    }
}
