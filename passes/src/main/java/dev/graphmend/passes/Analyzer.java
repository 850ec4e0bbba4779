package dev.graphmend.passes;

import dev.graphmend.ir.concurrent.DeepStack;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.model.RuleInfo;
import dev.graphmend.passes.model.Severity;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.parse.SyntaxError;
import dev.graphmend.ir.source.LineIndex;
import dev.graphmend.passes.analysis.CompileRegions;
import dev.graphmend.passes.analysis.FunctionContext;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.fix.FixSite;
import dev.graphmend.passes.fix.Proposal;
import dev.graphmend.passes.fix.Transformation;
import dev.graphmend.ir.document.PythonDocument;
import dev.graphmend.passes.rules.Rule;
import dev.graphmend.passes.registry.RuleRegistry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engine's entry point: finds the compile regions of a project, runs every enabled rule on
 * every function in them, and returns each file's diagnostics (GM000 for syntax errors first),
 * sorted by position, without suppressed ones and without duplicates (a function reached from
 * several roots is reported once, naming the first root).
 */
public final class Analyzer {
    private Analyzer() {}

    public static Findings analyze(Project project) {
        return analyze(project, null);
    }

    /**
     * Like {@link #analyze(Project)}, but runs the rules only on the functions of {@code focus}
     * (the other modules still supply roots and calls); the map holds every module, the others
     * with no diagnostics. Null focus: every module.
     */
    public static Findings analyze(Project project, SourceModule focus) {
        return analyze(project, focus, null);
    }

    /**
     * Like {@link #analyze(Project, SourceModule)}, reusing what {@code memo} kept of the focus
     * module's previous version where the edit cannot have changed it, and keeping this
     * version's results in it. Null memo: analyse everything.
     */
    public static Findings analyze(Project project, SourceModule focus, AnalysisMemo memo) {
        return analyze(project, focus, memo, false);
    }

    /**
     * Like {@link #analyze(Project, SourceModule, AnalysisMemo)}; with {@code buildEdits} every
     * offered fix comes with its edits (fix-all applies them all), else only described
     * ({@link Diagnostic.Fix#hasEdits()} false: {@link Findings#fixesFor} builds one diagnostic's
     * on request). Edits built here are not yet re-parse-checked: whoever applies them checks.
     */
    public static Findings analyze(Project project, SourceModule focus, AnalysisMemo memo, boolean buildEdits) {
        if (focus == null) memo = null;
        AnalysisConfig config = project.config();
        if (memo != null) {
            List<SourceModule> others = new ArrayList<>(project.modules());
            others.remove(focus);
            memo.begin(focus, others, config);
        }
        boolean completed = false;
        try {
            Findings result = analyzeWith(project, focus, memo, config, buildEdits);
            completed = true;
            return result;
        } finally {
            // an analysis that failed half-way must not leave entries of an older version to be reused
            if (memo != null) {
                if (completed) memo.end();
                else memo.forget();
            }
        }
    }

    private static Findings analyzeWith(Project project, SourceModule focus, AnalysisMemo memoNow, AnalysisConfig config,
                                        boolean buildEdits) {
        Map<SourceModule, List<Diagnostic>> out = new ConcurrentHashMap<>();
        java.util.Queue<String> errors = new java.util.concurrent.ConcurrentLinkedQueue<>();
        // only the analysed modules get lists (a focused analysis of one file of 2,913 made 2,913 lists a keystroke)
        if (focus != null) out.put(focus, new ArrayList<>(syntaxErrors(focus, config)));
        else for (SourceModule m : project.modules()) out.put(m, new ArrayList<>(syntaxErrors(m, config)));
        CompileRegions regions = CompileRegions.discover(project,
                config.assumeCompiled() == AnalysisConfig.AssumeCompiled.MODULE_FORWARD, focus,
                memoNow == null ? null : memoNow.follows(project));
        List<Rule> rules = new ArrayList<>();
        for (RuleRegistry.Entry e : RuleRegistry.detected()) if (config.isEnabled(e.code())) rules.add(e.detector());

        // the compiled functions of each module, for fixes whose edit is module-wide
        List<CompileRegions.Reached> reachedNow = regions.reached(); // a copy at each call
        Map<SourceModule, List<CompileRegions.Reached>> compiled = new IdentityHashMap<>();
        for (CompileRegions.Reached r : reachedNow) {
            if (focus != null && r.function().module() != focus) continue;
            compiled.computeIfAbsent(r.function().module(), k -> new ArrayList<>()).add(r);
        }
        Map<SourceModule, dev.graphmend.passes.fix.ModuleFunctions> byModule = new IdentityHashMap<>();
        compiled.forEach((m, rs) -> byModule.put(m, new dev.graphmend.passes.fix.ModuleFunctions(() -> rs.stream()
                .map(r -> new FunctionContext(project, r.function(), r.params(), r.isRoot())).toList())));
        if (memoNow != null) memoNow.compiled(compiled.getOrDefault(focus, List.of()));
        // what the memo still holds is taken on this thread; only the functions analysed again go
        // parallel (on a keystroke that is one or two of hundreds, which the stream split and joined)
        List<CompileRegions.Reached> toAnalyse = new ArrayList<>();
        for (CompileRegions.Reached reached : reachedNow) {
            SourceModule m = reached.function().module();
            if (focus != null && m != focus) continue;
            // (the memo asks once per callee and version: many functions' fixes read the same callee)
            List<Diagnostic> known = memoNow == null ? null : memoNow.lookup(reached, callee -> byModule.get(m) == null ? ""
                    : moduleDigest(project, compiled.get(m), callee, memoNow));
            if (known != null) out.get(m).addAll(known);
            else toAnalyse.add(reached);
        }
        DeepStack.forEach(toAnalyse.size(), index -> {
            CompileRegions.Reached reached = toAnalyse.get(index);
            SourceModule m = reached.function().module();
            FunctionContext ctx = reached.context(project); // reuses what discovery inferred
            List<Diagnostic> found = new ArrayList<>();
            for (Rule rule : rules) {
                try {
                    runRule(rule, ctx, m, reached, config, found, byModule.get(m), errors, buildEdits);
                } catch (RuntimeException | StackOverflowError e) {
                    // one function the analysis cannot handle must not cost the rest of the project
                    errors.add(m.path() + ":" + reached.function().def().span().line() + " " + rule.info().code()
                            + ": internal error " + e);
                }
            }
            if (memoNow != null) memoNow.store(reached, ctx.consulted(), ctx.methodLookups(), ctx.moduleReads(), found);
            List<Diagnostic> list = out.get(m);
            synchronized (list) {
                list.addAll(found);
            }
        });
        Map<SourceModule, List<Diagnostic>> functions = new IdentityHashMap<>();
        for (SourceModule m : focus != null ? List.of(focus) : project.modules()) {
            List<Diagnostic> found = out.get(m);
            functions.put(m, found == null || found.isEmpty() ? List.of() : dedupAndSort(found));
        }
        RootAttribution attribution = new RootAttribution(regions);
        // a scalar read or dynamic shape that only fullgraph=True roots reach is traced, not a break
        Set<Diagnostic> captured = RootRules.capturedByTheirRoots(project.modules(), regions, functions, attribution, config);
        if (!captured.isEmpty()) functions.replaceAll((m, l) -> l.stream().filter(d -> !captured.contains(d)).toList());
        // the rules that judge a compile root by every diagnostic reaching it (GM301)
        RootRules.of(project.modules(), focus, regions, functions, attribution, config, buildEdits).forEach((m, found) -> {
            List<Diagnostic> all = new ArrayList<>(functions.get(m));
            all.addAll(found);
            functions.put(m, dedupAndSort(all));
        });
        Map<SourceModule, List<Diagnostic>> result = focus != null ? new FocusResult(project, focus, functions.get(focus)) : functions;
        List<String> internal = new ArrayList<>(regions.internalErrors());
        internal.addAll(errors);
        return new Findings(result, internal, (m, d) -> fixesFor(project, regions, rules, config, byModule, m, d), attribution);
    }

    /**
     * {@code DeferSideEffect.undeferrableDigest} of a module's compiled functions, from each
     * function's part: kept by the memo while what it read stands (moved with its function: a part
     * counts lines from its function's), else computed from a context of that function alone (all
     * of them were made at every keystroke of a 540-function file).
     */
    private static String moduleDigest(Project project, List<CompileRegions.Reached> functions, String callee, AnalysisMemo memo) {
        StringBuilder b = new StringBuilder();
        for (CompileRegions.Reached r : functions) {
            String part = memo.digestPart(r, callee);
            if (part == null) {
                FunctionContext ctx = new FunctionContext(project, r.function(), r.params(), r.isRoot());
                part = dev.graphmend.passes.fix.DeferSideEffect.undeferrableDigest(ctx, callee);
                memo.keepDigestPart(r, callee, part, ctx.consulted(), ctx.methodLookups());
            }
            dev.graphmend.passes.fix.DeferSideEffect.appendDigestPart(b, r.function().def().span().line(), part);
        }
        return b.toString();
    }

    /**
     * The fixes of one diagnostic of this analysis with their edits built, each re-parse-checked:
     * the rules run again on the compiled functions of {@code m} whose lines hold it, innermost
     * first, with edits built, until one reports the same code at the same span.
     */
    private static List<Diagnostic.Fix> fixesFor(Project project, CompileRegions regions, List<Rule> rules,
                                                 AnalysisConfig config, Map<SourceModule, dev.graphmend.passes.fix.ModuleFunctions> byModule,
                                                 SourceModule m, Diagnostic d) {
        if (d.fixes().isEmpty()) return List.of();
        RuleRegistry.Entry entry = RuleRegistry.byCode(d.code());
        if (entry != null && entry.detector() == null) {
            // a root rule's fix (GM301): built from the root's compile call, not by running a function's rules again
            return RootRules.fixesFor(m, d).stream().filter(f -> reparses(m, f)).toList();
        }
        List<CompileRegions.Reached> around = new ArrayList<>();
        for (CompileRegions.Reached r : regions.reached()) {
            Span def = r.function().def().span();
            if (r.function().module() == m && def != null && def.line() <= d.span().line() && d.span().endLine() <= def.endLine()) {
                around.add(r);
            }
        }
        around.sort(Comparator.comparingInt(r -> r.function().def().span().endLine() - r.function().def().span().line()));
        java.util.Queue<String> errors = new java.util.concurrent.ConcurrentLinkedQueue<>();
        for (CompileRegions.Reached r : around) {
            FunctionContext ctx;
            synchronized (r) {
                ctx = r.context(project);
            }
            List<Diagnostic> found = new ArrayList<>();
            for (Rule rule : rules) {
                if (!rule.info().code().equals(d.code())) continue;
                try {
                    runRule(rule, ctx, m, r, config, found, byModule.get(m), errors, true);
                } catch (RuntimeException | StackOverflowError e) {
                    return List.of();
                }
            }
            for (Diagnostic again : found) {
                if (!again.code().equals(d.code()) || !again.span().equals(d.span())) continue;
                List<Diagnostic.Fix> out = new ArrayList<>();
                for (Diagnostic.Fix f : again.fixes()) if (reparses(m, f)) out.add(f);
                return out;
            }
        }
        return List.of();
    }

    /** Whether a diagnostic of {@code code} at {@code span} is not reported: a suppression comment on its first or last line, or per-file-ignores. */
    static boolean hiddenAt(AnalysisConfig config, SourceModule m, Span span, String code) {
        return m.suppressions().suppresses(span.line(), code) || m.suppressions().suppresses(span.endLine(), code)
                || ignoredInFile(config, m, code);
    }

    /** {@code per-file-ignores}: the code is not reported in this file. */
    static boolean ignoredInFile(AnalysisConfig config, SourceModule m, String code) {
        if (config.files().perFileIgnores().isEmpty()) return false;
        try {
            return config.files().ignores(java.nio.file.Path.of(m.path()), code);
        } catch (java.nio.file.InvalidPathException e) {
            return false;
        }
    }

    private static void runRule(Rule rule, FunctionContext ctx, SourceModule m, CompileRegions.Reached reached,
                                AnalysisConfig config, List<Diagnostic> found, dev.graphmend.passes.fix.ModuleFunctions moduleFunctions,
                                java.util.Queue<String> errors, boolean buildEdits) {
                rule.check(ctx, (info, at, message, ids) -> {
                    Span span = at.span();
                    if (span == null || hiddenAt(config, m, span, info.code())) return;
                    List<Diagnostic.Fix> fixes = new ArrayList<>();
                    String noFix = proposeFixes(ctx, m, info.code(), at, fixes, moduleFunctions, errors, buildEdits);
                    found.add(new Diagnostic(info, config.severityOf(info.code(), info.defaultSeverity()), span, message,
                            ids, reached.root(), List.copyOf(fixes), noFix));
                });
    }

    /**
     * Asks every transformation of the rule for a fix at this site and keeps the legal ones, their
     * edits built only with {@code buildEdits}. Returns why no fix is offered when the rule has
     * transformations but none is legal here (null otherwise).
     */
    private static String proposeFixes(FunctionContext ctx, SourceModule m, String code, Node at, List<Diagnostic.Fix> out,
                                       dev.graphmend.passes.fix.ModuleFunctions moduleFunctions, java.util.Queue<String> errors,
                                       boolean buildEdits) {
        List<Transformation> ts = RuleRegistry.fixesOf(code);
        if (ts.isEmpty()) return null;
        List<String> reasons = new ArrayList<>();
        FixSite site = new FixSite(ctx, at, moduleFunctions);
        for (Transformation t : ts) {
            Proposal p;
            try {
                p = t.propose(site);
            } catch (RuntimeException | StackOverflowError | ExceptionInInitializerError e) {
                errors.add(m.path() + ":" + at.span().line() + " " + t.getClass().getSimpleName() + ": internal error " + e);
                continue;
            }
            if (p.offered()) {
                if (p.described().safety().isSafe() && !t.info().safety().isSafe()) {
                    // the registry and the rule page call this fix unsafe: a site may only lower a fix's safety
                    errors.add(m.path() + ":" + at.span().line() + " " + t.getClass().getSimpleName()
                            + ": internal error: offered as safe, but the fix is declared unsafe");
                    continue;
                }
                if (!buildEdits) {
                    out.add(p.described());
                    continue;
                }
                try {
                    out.add(p.fix());
                } catch (RuntimeException | StackOverflowError e) {
                    errors.add(m.path() + ":" + at.span().line() + " " + t.getClass().getSimpleName() + ": internal error " + e);
                }
            } else if (p.declineReason() != null && !reasons.contains(p.declineReason())) {
                reasons.add(p.declineReason());
            }
        }
        // the reasons matter while no safe fix exists: fix-all (safe) leaves the break, and the user should know why
        boolean safe = out.stream().anyMatch(f -> f.safety().isSafe());
        if (safe || reasons.isEmpty()) return null;
        return String.join("; ", reasons);
    }

    /**
     * Whether a fix's edits re-parse: the file with the fix applied has no more syntax errors than
     * before (a rewrite that does not is a bug of ours, and is not offered); only the statements
     * around the edits are parsed ({@link dev.graphmend.passes.model.Edits#reparse}).
     */
    public static boolean reparses(SourceModule m, Diagnostic.Fix fix) {
        return dev.graphmend.passes.model.Edits.reparse(m.ir().document().text(), m.ir().lines(), m.ir().module(), fix.edits());
    }

    private static List<Diagnostic> syntaxErrors(SourceModule m, AnalysisConfig config) {
        // like ruff's syntax errors: always reported, as errors, whatever select/ignore/severity say
        List<Diagnostic> out = new ArrayList<>();
        if (m.ir().errors().isEmpty()) return out; // without building the line index
        LineIndex lines = m.ir().lines();
        for (SyntaxError e : m.ir().errors()) {
            int line = Math.max(1, Math.min(e.line(), lines.lineCount()));
            int endLine = Math.max(line, Math.min(e.endLine(), lines.lineCount()));
            int col = lines.utf8Column(line, Math.max(0, e.column() - 1));
            int endCol = lines.utf8Column(endLine, Math.max(0, e.endColumn() - 1));
            if (endLine == line && endCol < col) endCol = col;
            out.add(new Diagnostic(RuleRegistry.SYNTAX_ERROR, Severity.ERROR,
                    new Span(line, col, endLine, endCol), "Syntax error: " + e.message()
                    + " (GraphMend still analyses the rest of the file)", List.of(), null, List.of(), null));
        }
        return out;
    }

    /** Position, code, then root: the order diagnostics are reported in. */
    private static final Comparator<Diagnostic> REPORT_ORDER = (a, b) -> {
        int c = Integer.compare(a.span().line(), b.span().line());
        if (c == 0) c = Integer.compare(a.span().col(), b.span().col());
        if (c == 0) c = a.code().compareTo(b.code());
        if (c == 0) c = (a.root() == null ? "" : a.root().path()).compareTo(b.root() == null ? "" : b.root().path());
        if (c == 0) c = Integer.compare(a.root() == null ? 0 : a.root().line(), b.root() == null ? 0 : b.root().line());
        return c;
    };

    /** What makes two diagnostics one: the first of a code at a span is kept (its root comes first in {@link #REPORT_ORDER}). */
    private record Reported(String code, Span span) {}

    private static List<Diagnostic> dedupAndSort(List<Diagnostic> list) {
        List<Diagnostic> sorted = new ArrayList<>(list);
        sorted.sort(REPORT_ORDER);
        Set<Reported> seen = new HashSet<>(sorted.size() * 2);
        List<Diagnostic> out = new ArrayList<>(sorted.size());
        for (Diagnostic d : sorted) {
            if (seen.add(new Reported(d.code(), d.span()))) out.add(d);
        }
        return out;
    }

    /**
     * A focused analysis's result as a map of every module of the project: the focus's
     * diagnostics, an empty list for the others (filling a map of 2,913 modules took part of
     * every keystroke of a file in a large workspace).
     */
    private static final class FocusResult extends java.util.AbstractMap<SourceModule, List<Diagnostic>> {
        private final Project project;
        private final SourceModule focus;
        private final List<Diagnostic> found;

        FocusResult(Project project, SourceModule focus, List<Diagnostic> found) {
            this.project = project;
            this.focus = focus;
            this.found = found;
        }

        @Override public List<Diagnostic> get(Object key) {
            if (key == focus) return found;
            return key instanceof SourceModule m && project.holds(m) ? List.of() : null;
        }

        @Override public boolean containsKey(Object key) {
            return key instanceof SourceModule m && project.holds(m);
        }

        @Override public int size() {
            return project.modules().size();
        }

        @Override public Set<Map.Entry<SourceModule, List<Diagnostic>>> entrySet() {
            return new java.util.AbstractSet<>() {
                @Override public int size() {
                    return project.modules().size();
                }

                @Override public java.util.Iterator<Map.Entry<SourceModule, List<Diagnostic>>> iterator() {
                    java.util.Iterator<SourceModule> modules = project.modules().iterator();
                    return new java.util.Iterator<>() {
                        @Override public boolean hasNext() {
                            return modules.hasNext();
                        }

                        @Override public Map.Entry<SourceModule, List<Diagnostic>> next() {
                            SourceModule m = modules.next();
                            return Map.entry(m, m == focus ? found : List.of());
                        }
                    };
                }
            };
        }
    }
}
