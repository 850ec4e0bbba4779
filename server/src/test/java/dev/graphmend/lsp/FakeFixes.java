package dev.graphmend.lsp;

import dev.graphmend.passes.model.Safety;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dev.graphmend.ir.ast.Span;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.FixAll;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine with fixes attached, isolating the server from the fixes being written in passes:
 * GM101 gets a safe "Rewrite to torch.where" (here: the condition becomes a shape test), GM102 an
 * unsafe "Skip while compiling" (the call becomes {@code None}) and GM203 only a noFixReason.
 */
final class FakeFixes {
    private FakeFixes() {}

    static Engine engine() {
        Engine e = mock(Engine.class);
        when(e.analyze(any(), any(), any())).thenAnswer(inv -> withFixes(Engine.DEFAULT.analyze(inv.getArgument(0), inv.getArgument(1),
                inv.getArgument(2))));
        when(e.fixAll(any(), any(), any(), any())).thenAnswer(inv -> fixAll(inv.getArgument(0), inv.getArgument(1),
                inv.getArgument(2), inv.getArgument(3)));
        return e;
    }

    static dev.graphmend.passes.Findings withFixes(dev.graphmend.passes.Findings found) {
        Map<SourceModule, List<Diagnostic>> out = new IdentityHashMap<>();
        for (var en : found.entrySet()) {
            List<Diagnostic> l = new ArrayList<>();
            for (Diagnostic d : en.getValue()) l.add(withFix(d));
            out.put(en.getKey(), l);
        }
        return dev.graphmend.passes.Findings.of(out, found.internalErrors());
    }

    static Diagnostic withFix(Diagnostic d) {
        Span s = d.span();
        switch (d.code()) {
            case "GM101":
                return new Diagnostic(d.rule(), d.severity(), s, d.message(), d.dynamoIds(), d.root(),
                        List.of(new Diagnostic.Fix("Rewrite to torch.where", Safety.SAFE,
                                List.of(new Diagnostic.Edit(s, "x.shape[0] > 0")), null)), null);
            case "GM102":
                return new Diagnostic(d.rule(), d.severity(), s, d.message(), d.dynamoIds(), d.root(),
                        List.of(new Diagnostic.Fix("Skip while compiling", Safety.UNSAFE,
                                List.of(new Diagnostic.Edit(s, "None")), "output is dropped under torch.compile")), null);
            case "GM201":
                return new Diagnostic(d.rule(), d.severity(), s, d.message(), d.dynamoIds(), d.root(), List.of(),
                        "the scalar flows into Python control flow");
            default:
                return d;
        }
    }

    static FixAll.Result fixAll(Path file, String text, AnalysisConfig config, List<SourceModule> others) {
        SourceModule m = ProjectLoader.module(file, file.toString(), text);
        List<SourceModule> all = new ArrayList<>(others);
        all.add(m);
        List<Diagnostic> ds = withFixes(Engine.DEFAULT.analyze(new Project(all, config), m, null)).get(m);
        List<Diagnostic.Edit> edits = new ArrayList<>();
        List<FixAll.Applied> applied = new ArrayList<>();
        for (Diagnostic d : ds) {
            for (Diagnostic.Fix f : d.fixes()) {
                if (!f.safety().isSafe() && !config.unsafeFixes()) continue;
                edits.addAll(f.edits());
                applied.add(new FixAll.Applied(d.code(), d.span().line(), f.title(), f.safety()));
                break;
            }
        }
        return new FixAll.Result(dev.graphmend.passes.model.Edits.apply(text, m.ir().lines(), edits), applied, List.of(), 1, List.of());
    }
}
