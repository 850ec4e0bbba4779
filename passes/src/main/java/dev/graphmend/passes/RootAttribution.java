package dev.graphmend.passes;

import dev.graphmend.ir.ast.Span;
import dev.graphmend.passes.analysis.CompileRegions;
import dev.graphmend.passes.analysis.Modes;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.model.Diagnostic;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link Findings.Attribution} of one analysis (docs/cli.md, "Full-graph readiness"): a diagnostic
 * belongs to the innermost compiled function around it; every root that reaches that function
 * reaches it, in the modes the root reaches the function in, narrowed by the mode and dtype
 * tests around the diagnostic inside it ({@code Modes.atSpan}), unless the root, called as its
 * program calls it, does not run the line ({@code CompileRegions.runsUnderItsCalls}).
 */
final class RootAttribution implements Findings.Attribution {
    private final CompileRegions regions;
    private Map<SourceModule, List<CompileRegions.Reached>> byModule; // built on first request
    private final Map<Diagnostic, Map<Diagnostic.Root, Integer>> byDiagnostic = new IdentityHashMap<>();

    RootAttribution(CompileRegions regions) {
        this.regions = regions;
    }

    @Override
    public List<Findings.CompiledRoot> roots() {
        Map<Diagnostic.Root, Integer> out = new LinkedHashMap<>();
        Map<Diagnostic.Root, List<String>> none = new java.util.HashMap<>();
        for (CompileRegions.CompileRoot r : regions.compileRoots()) {
            out.merge(r.root(), r.modes(), (a, b) -> a | b);
            if (r.noneAtItsCalls() != null) none.put(r.root(), new java.util.TreeSet<>(r.noneAtItsCalls().keySet()).stream().toList());
        }
        List<Findings.CompiledRoot> list = new ArrayList<>();
        out.forEach((r, m) -> list.add(new Findings.CompiledRoot(r, m, none.getOrDefault(r, List.of()))));
        return list;
    }

    @Override
    public Diagnostic.Root namedRoot(SourceModule module, Diagnostic d) {
        if (d.root() == null) return null;
        // a line that runs in every mode its function runs in: the diagnostic's own root reaches it
        // (unless its calls rule the line out), and the roots reaching every function need not be found
        CompileRegions.Reached inner = innermost(module, d);
        if (inner == null || Modes.atSpan(inner.function().def(), d.span()) == Modes.BOTH && !regions.narrowedByCalls(d.root())) {
            return d.root();
        }
        Map<Diagnostic.Root, Integer> reaching = rootsOf(module, d);
        if (reaching.isEmpty() || reaching.containsKey(d.root())) return d.root();
        return reaching.keySet().iterator().next(); // the line runs in modes the diagnostic's own root does not reach it in
    }

    @Override
    public synchronized Map<Diagnostic.Root, Integer> rootsOf(SourceModule module, Diagnostic d) {
        if (d.root() == null) return Map.of();
        // the CLI asks for each diagnostic up to three times (summary, its roots, the root it names)
        return byDiagnostic.computeIfAbsent(d, k -> {
            CompileRegions.Reached inner = innermost(module, d);
            if (inner == null) return Map.of(d.root(), Modes.BOTH); // not found again: the root it names, as it names it
            int here = Modes.atSpan(inner.function().def(), d.span());
            Map<Diagnostic.Root, Integer> out = new LinkedHashMap<>();
            for (var e : regions.rootsReaching(inner.function()).entrySet()) {
                int modes = e.getValue() & here;
                // a root whose program's calls leave the line's branch untaken does not run it
                if (modes != 0 && !Boolean.FALSE.equals(regions.runsUnderItsCalls(e.getKey(), inner.function(), d.span()))) {
                    out.put(e.getKey(), modes);
                }
            }
            return out;
        });
    }

    /** The innermost reached function around the diagnostic; null when none is. */
    private synchronized CompileRegions.Reached innermost(SourceModule module, Diagnostic d) {
        if (byModule == null) {
            byModule = new IdentityHashMap<>();
            for (CompileRegions.Reached r : regions.reached()) {
                byModule.computeIfAbsent(r.function().module(), k -> new ArrayList<>()).add(r);
            }
        }
        CompileRegions.Reached inner = null;
        for (CompileRegions.Reached r : byModule.getOrDefault(module, List.of())) {
            Span def = r.function().def().span();
            if (def == null || def.line() > d.span().line() || d.span().endLine() > def.endLine()) continue;
            if (inner == null || inner.function().def().span().line() <= def.line() && def.endLine() <= inner.function().def().span().endLine()) {
                inner = r;
            }
        }
        return inner;
    }
}
