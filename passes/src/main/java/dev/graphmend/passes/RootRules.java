package dev.graphmend.passes;

import dev.graphmend.passes.analysis.CompileRegions;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.fix.CompileWithFullgraph;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.rules.CaptureAtRoot;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rules that judge a compile root rather than a function (GM301), run once the functions'
 * diagnostics and their attribution to roots are known. A root is judged only where every
 * diagnostic that reaches it was computed: in a whole-project analysis every root; in an analysis
 * focused on one module, a root of that module whose compiled functions are all in it.
 */
final class RootRules {
    private RootRules() {}

    /** The root diagnostics, by module, of an analysis whose (deduplicated) diagnostics are {@code found}. */
    static Map<SourceModule, List<Diagnostic>> of(List<SourceModule> modules, SourceModule focus, CompileRegions regions,
                                                  Map<SourceModule, List<Diagnostic>> found, Findings.Attribution attribution,
                                                  AnalysisConfig config, boolean buildEdits) {
        Map<SourceModule, List<Diagnostic>> out = new LinkedHashMap<>();
        if (!config.isEnabled(CaptureAtRoot.INFO.code())) return out;
        // a root is judged only with a captured break reaching it: most analyses have none, and
        // then nothing below (which asks which roots reach which functions) runs at a keystroke
        if (found.values().stream().flatMap(List::stream).noneMatch(d -> d.code().equals("GM201") || d.code().equals("GM202"))) {
            return out;
        }
        // a break hidden from the analysis's output is still a break: GM301 judges only what every
        // rule reports, so not with a rule deselected, and not a root whose code holds a suppression
        for (var e : dev.graphmend.passes.registry.RuleRegistry.detected()) if (!config.isEnabled(e.code())) return out;
        Map<String, SourceModule> byPath = new java.util.HashMap<>();
        for (SourceModule m : focus != null ? List.of(focus) : modules) byPath.putIfAbsent(m.path(), m);
        Set<Diagnostic.Root> outsideFocus = null;
        Set<Diagnostic.Root> hiding = null;
        Set<Diagnostic.Root> judged = new HashSet<>();
        for (CompileRegions.CompileRoot r : regions.compileRoots()) {
            Diagnostic.Root root = r.root();
            SourceModule m = byPath.get(root.path());
            if (m == null || CaptureAtRoot.compileAt(m, root.line()) == null || !judged.add(root)) continue;
            if (focus != null) {
                if (outsideFocus == null) outsideFocus = rootsReachingOutside(regions, focus);
                if (outsideFocus.contains(root)) continue;
            }
            if (hiding == null) hiding = rootsReachingHiddenCode(regions, config);
            if (hiding.contains(root)) continue;
            List<CaptureAtRoot.Reaching> reaching = new ArrayList<>();
            for (var e : found.entrySet()) {
                for (Diagnostic d : e.getValue()) {
                    Integer modes = attribution.rootsOf(e.getKey(), d).get(root);
                    if (modes != null && (modes & r.modes()) != 0) reaching.add(new CaptureAtRoot.Reaching(e.getKey(), d));
                }
            }
            CaptureAtRoot.Finding f = CaptureAtRoot.check(m, root, reaching, config, e -> CompileWithFullgraph.edits(e) != null);
            if (f == null) continue;
            Diagnostic d = new Diagnostic(CaptureAtRoot.INFO, config.severityOf(CaptureAtRoot.INFO.code(), CaptureAtRoot.INFO.defaultSeverity()),
                    f.compile().span(), f.message(), CaptureAtRoot.INFO.dynamoIds(), root,
                    List.of(CompileWithFullgraph.fix(buildEdits ? CompileWithFullgraph.edits(f.compile()) : null)), null);
            if (Analyzer.hiddenAt(config, m, d.span(), d.code())) continue;
            out.computeIfAbsent(m, k -> new ArrayList<>()).add(d);
        }
        return out;
    }

    /**
     * The diagnostics of {@code found} that break no root: captured ones ({@link
     * CaptureAtRoot#capturedUnderFullgraph}) that only roots compiled with {@code fullgraph=True}
     * reach, from torch 2.10 (docs/rules/GM301.md). Dynamo traces them into the graph there.
     */
    static Set<Diagnostic> capturedByTheirRoots(List<SourceModule> modules, CompileRegions regions,
                                                Map<SourceModule, List<Diagnostic>> found, Findings.Attribution attribution,
                                                AnalysisConfig config) {
        Set<Diagnostic> out = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        if (config.torchBefore(CaptureAtRoot.CAPTURES_SINCE)) return out;
        Map<String, SourceModule> byPath = new java.util.HashMap<>();
        for (SourceModule m : modules) byPath.putIfAbsent(m.path(), m);
        Map<Diagnostic.Root, Boolean> fullgraph = new java.util.HashMap<>();
        boolean any = false;
        for (CompileRegions.CompileRoot r : regions.compileRoots()) {
            SourceModule m = byPath.get(r.root().path());
            boolean on = m != null && CaptureAtRoot.compiledWithFullgraph(CaptureAtRoot.compileAt(m, r.root().line()));
            fullgraph.put(r.root(), on);
            any |= on;
        }
        if (!any) return out; // no root says fullgraph=True: nothing is captured (the usual case, at no cost)
        for (var e : found.entrySet()) {
            for (Diagnostic d : e.getValue()) {
                if (!CaptureAtRoot.capturedUnderFullgraph(e.getKey(), d)) continue;
                Map<Diagnostic.Root, Integer> roots = attribution.rootsOf(e.getKey(), d);
                if (roots.isEmpty()) continue;
                boolean all = true;
                for (Diagnostic.Root r : roots.keySet()) all &= fullgraph.getOrDefault(r, false);
                if (all) out.add(d);
            }
        }
        return out;
    }

    /** The fixes of a root diagnostic with their edits built (the analysis may only have described them). */
    static List<Diagnostic.Fix> fixesFor(SourceModule m, Diagnostic d) {
        if (!d.code().equals(CaptureAtRoot.INFO.code()) || d.root() == null) return List.of();
        var edits = CompileWithFullgraph.edits(CaptureAtRoot.compileAt(m, d.root().line()));
        return edits == null ? List.of() : List.of(CompileWithFullgraph.fix(edits));
    }

    /**
     * The roots that reach a compiled function holding a suppression comment, or in a file whose
     * per-file-ignores drop a code: a break there is not in the analysis's output.
     */
    private static Set<Diagnostic.Root> rootsReachingHiddenCode(CompileRegions regions, AnalysisConfig config) {
        Set<Diagnostic.Root> out = new HashSet<>();
        for (CompileRegions.Reached f : regions.reached()) {
            SourceModule m = f.function().module();
            var def = f.function().def().span();
            // the function's suppressed lines, then whether one suppresses a rule's code (not another
            // linter's `# noqa: E501`) or the file's per-file-ignores drop one
            List<Integer> lines = def == null ? List.of()
                    : m.suppressions().lines().stream().filter(l -> def.line() <= l && l <= def.endLine()).toList();
            boolean hidden = false;
            for (var e : dev.graphmend.passes.registry.RuleRegistry.detected()) {
                String code = e.code();
                hidden |= Analyzer.ignoredInFile(config, m, code) || lines.stream().anyMatch(l -> m.suppressions().suppresses(l, code));
            }
            if (hidden) out.addAll(regions.rootsReaching(f.function()).keySet());
        }
        return out;
    }

    /** The roots that reach a compiled function of another module than {@code focus}. */
    private static Set<Diagnostic.Root> rootsReachingOutside(CompileRegions regions, SourceModule focus) {
        Set<Diagnostic.Root> out = new HashSet<>();
        for (CompileRegions.Reached f : regions.reached()) {
            if (f.function().module() != focus) out.addAll(regions.rootsReaching(f.function()).keySet());
        }
        return out;
    }
}
