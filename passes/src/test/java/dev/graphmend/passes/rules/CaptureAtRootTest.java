package dev.graphmend.passes.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.passes.Analyzer;
import dev.graphmend.passes.Findings;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.model.Diagnostic;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * GM301 judges a compile root by every diagnostic that reaches it (docs/rules/GM301.md): where
 * those are known (a whole project; in a focused analysis, a root whose code is all in the open
 * file), from torch 2.10, and once the root says fullgraph=True its captured reads are no breaks.
 */
class CaptureAtRootTest {
    private static final String HELPER = """
            import torch

            def mean_over(x, active):
                n = active.sum().item()
                return x.sum(0) / n
            """;
    private static final String ROOT = """
            import torch
            from helpers import mean_over

            @torch.compile
            def step(x, active):
                return mean_over(x, active)
            """;

    private static SourceModule module(String path, String text) {
        return ProjectLoader.module(Path.of(path), path, text);
    }

    private static List<String> codes(Findings f, SourceModule m) {
        return f.get(m).stream().map(d -> d.span().line() + " " + d.code()).toList();
    }

    @Test
    void aRootWhoseBreakIsInAnotherFileIsJudgedOnlyWhenTheWholeProjectIs() {
        SourceModule helper = module("helpers.py", HELPER), root = module("train.py", ROOT);
        Project p = new Project(List.of(helper, root), AnalysisConfig.defaults());
        assertEquals(List.of("4 GM301"), codes(Analyzer.analyze(p), root));
        assertEquals(List.of("4 GM201"), codes(Analyzer.analyze(p), helper));
        // the editor analyses the open file: the helper's break is not known there, so no verdict on the root
        assertEquals(List.of(), codes(Analyzer.analyze(p, root), root));
    }

    @Test
    void aRootWhoseCodeIsInTheOpenFileIsJudgedThere() {
        SourceModule one = module("one.py", HELPER + ROOT.replace("from helpers import mean_over\n", ""));
        Project p = new Project(List.of(one), AnalysisConfig.defaults());
        assertEquals(codes(Analyzer.analyze(p), one), codes(Analyzer.analyze(p, one), one));
        assertTrue(codes(Analyzer.analyze(p, one), one).contains("8 GM301"), codes(Analyzer.analyze(p, one), one).toString());
    }

    @Test
    void theSummaryNamesGM301WhereItCheckedTheCapturedValues() {
        SourceModule one = module("one.py", HELPER + ROOT.replace("from helpers import mean_over\n", ""));
        AnalysisConfig config = AnalysisConfig.defaults();
        Findings f = Analyzer.analyze(new Project(List.of(one), config));
        var roots = dev.graphmend.passes.FullGraphReadiness.of(f, f.attribution(), config, true);
        assertEquals(1, roots.size());
        assertTrue(roots.get(0).capturable());
        assertEquals("1 break, 0 with a safe fix, 0 with an unsafe fix only, 0 without a fix, 1 captured under fullgraph=True; "
                + "fullgraph=True after fix: yes (GM301: fullgraph=True at the compile call)", roots.get(0).sentence());
    }

    @Test
    void aBreakHiddenFromTheOutputIsStillABreak() {
        // the data-dependent branch breaks under fullgraph=True whether or not it is reported
        String text = HELPER.replace("    return x.sum(0) / n\n", "    if x.sum() > 0:  # graphmend: ignore[GM101]\n        x = -x\n    return x.sum(0) / n\n")
                + ROOT.replace("from helpers import mean_over\n", "");
        SourceModule suppressed = module("one.py", text);
        assertEquals(List.of("4 GM201"), codes(Analyzer.analyze(new Project(List.of(suppressed), AnalysisConfig.defaults())), suppressed));
        SourceModule plain = module("one.py", text.replace("  # graphmend: ignore[GM101]", ""));
        assertEquals(List.of("4 GM201"), codes(Analyzer.analyze(new Project(List.of(plain),
                AnalysisConfig.defaults().withIgnore(List.of("GM101")))), plain));
    }

    @Test
    void notBeforeTorch210NorWhenNotSelected() {
        SourceModule one = module("one.py", HELPER + ROOT.replace("from helpers import mean_over\n", ""));
        Project old = new Project(List.of(one), AnalysisConfig.defaults().withTorchVersion("2.9"));
        assertEquals(List.of("4 GM201"), codes(Analyzer.analyze(old), one));
        Project ignored = new Project(List.of(one), AnalysisConfig.defaults().withIgnore(List.of("GM3")));
        assertEquals(List.of("4 GM201"), codes(Analyzer.analyze(ignored), one));
    }

    @Test
    void theFixAddsFullgraphAndThenTheReadIsNoBreak() {
        SourceModule one = module("one.py", HELPER + ROOT.replace("from helpers import mean_over\n", ""));
        Findings f = Analyzer.analyze(new Project(List.of(one), AnalysisConfig.defaults()));
        Diagnostic d = f.get(one).stream().filter(x -> x.code().equals("GM301")).findFirst().orElseThrow();
        assertEquals("Compile with `fullgraph=True`", d.fixes().get(0).title());
        assertTrue(!d.fixes().get(0).safety().isSafe());
        // described by the analysis, built on request (as every fix)
        assertEquals("(fullgraph=True)", f.fixesFor(one, d).get(0).edits().get(0).newText());
        SourceModule fixed = module("one.py", one.ir().document().text().replace("@torch.compile\n", "@torch.compile(fullgraph=True)\n"));
        assertEquals(List.of(), codes(Analyzer.analyze(new Project(List.of(fixed), AnalysisConfig.defaults())), fixed));
        // before torch 2.10 fullgraph=True does not capture the read: it stays a break
        assertEquals(List.of("4 GM201"), codes(Analyzer.analyze(new Project(List.of(fixed),
                AnalysisConfig.defaults().withTorchVersion("2.9"))), fixed));
    }

    @Test
    void aReadKeptByAnotherRootStaysABreak() {
        // the module's forward is also a root under module-forward: another program may compile it without fullgraph
        SourceModule m = module("net.py", """
                import torch
                from torch import nn

                class Net(nn.Module):
                    def forward(self, x):
                        return x / x.sum().item()

                compiled = torch.compile(Net(), fullgraph=True)
                """);
        assertEquals(List.of("6 GM201"), codes(Analyzer.analyze(new Project(List.of(m), AnalysisConfig.defaults())), m));
        assertEquals(List.of(), codes(Analyzer.analyze(new Project(List.of(m),
                AnalysisConfig.defaults().withAssumeCompiled(AnalysisConfig.AssumeCompiled.EXPLICIT))), m));
    }
}
