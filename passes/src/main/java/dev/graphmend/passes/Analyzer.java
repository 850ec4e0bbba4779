package dev.graphmend.passes;

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
import dev.graphmend.passes.FixAll;
import dev.graphmend.passes.fix.FixSite;
import dev.graphmend.passes.fix.Proposal;
import dev.graphmend.passes.fix.Transformation;
import dev.graphmend.passes.fix.Transformations;
import dev.graphmend.ir.document.PythonDocument;
import dev.graphmend.passes.rules.Rule;
import dev.graphmend.passes.rules.Rules;
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
    public static final RuleInfo SYNTAX_ERROR = new RuleInfo("GM000", "syntax-error", List.of(), Severity.ERROR,
            "A syntax error; the rest of the file is still analysed");

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
        if (focus == null) memo = null;
        AnalysisConfig config = project.config();
        if (memo != null) {
            List<SourceModule> others = new ArrayList<>(project.modules());
            others.remove(focus);
            memo.begin(focus, others, config);
        }
        boolean completed = false;
        try {
            Findings result = analyzeWith(project, focus, memo, config);
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

    private static Findings analyzeWith(Project project, SourceModule focus, AnalysisMemo memoNow, AnalysisConfig config) {
        Map<SourceModule, List<Diagnostic>> out = new ConcurrentHashMap<>();
        java.util.Queue<String> errors = new java.util.concurrent.ConcurrentLinkedQueue<>();
        for (SourceModule m : project.modules()) {
            out.put(m, new ArrayList<>(focus == null || focus == m ? syntaxErrors(m, config) : List.of()));
        }
        CompileRegions regions = CompileRegions.discover(project,
                config.assumeCompiled() == AnalysisConfig.AssumeCompiled.MODULE_FORWARD, focus);
        List<Rule> rules = new ArrayList<>();
        for (Rule r : Rules.ALL) if (config.isEnabled(r.info().code())) rules.add(r);

        // the compiled functions of each module, for fixes whose edit is module-wide
        Map<SourceModule, List<FunctionContext>> byModule = new IdentityHashMap<>();
        for (CompileRegions.Reached r : regions.reached()) {
            if (focus != null && r.function().module() != focus) continue;
            byModule.computeIfAbsent(r.function().module(), k -> new ArrayList<>())
                    .add(new FunctionContext(project, r.function(), r.params(), r.isRoot()));
        }
        regions.reached().parallelStream().forEach(reached -> {
            SourceModule m = reached.function().module();
            if (focus != null && m != focus) return;
            List<Diagnostic> known = memoNow == null ? null : memoNow.lookup(reached);
            if (known != null) {
                List<Diagnostic> list = out.get(m);
                synchronized (list) {
                    list.addAll(known);
                }
                return;
            }
            FunctionContext ctx = reached.context(project); // reuses what discovery inferred
            List<Diagnostic> found = new ArrayList<>();
            for (Rule rule : rules) {
                try {
                    runRule(rule, ctx, m, reached, config, found, byModule.get(m), errors);
                } catch (RuntimeException | StackOverflowError e) {
                    // one function the analysis cannot handle must not cost the rest of the project
                    errors.add(m.path() + ":" + reached.function().def().span().line() + " " + rule.info().code()
                            + ": internal error " + e);
                }
            }
            if (memoNow != null) memoNow.store(reached, ctx.consulted(), ctx.readWholeModule(), found);
            List<Diagnostic> list = out.get(m);
            synchronized (list) {
                list.addAll(found);
            }
        });
        Map<SourceModule, List<Diagnostic>> result = new IdentityHashMap<>();
        for (SourceModule m : project.modules()) result.put(m, dedupAndSort(out.get(m)));
        List<String> internal = new ArrayList<>(regions.internalErrors());
        internal.addAll(errors);
        return new Findings(result, internal);
    }

    private static void runRule(Rule rule, FunctionContext ctx, SourceModule m, CompileRegions.Reached reached,
                                AnalysisConfig config, List<Diagnostic> found, List<FunctionContext> moduleFunctions,
                                java.util.Queue<String> errors) {
                rule.check(ctx, (info, at, message, ids) -> {
                    Span span = at.span();
                    if (span == null || m.suppressions().suppresses(span.line(), info.code())
                            || m.suppressions().suppresses(span.endLine(), info.code())) {
                        return;
                    }
                    List<Diagnostic.Fix> fixes = new ArrayList<>();
                    String noFix = proposeFixes(ctx, m, info.code(), at, fixes, moduleFunctions, errors);
                    found.add(new Diagnostic(info, config.severityOf(info.code(), info.defaultSeverity()), span, message,
                            ids, reached.root(), List.copyOf(fixes), noFix));
                });
    }

    /**
     * Asks every transformation of the rule for a fix at this site; keeps the legal ones whose
     * edits re-parse. Returns why no fix is offered when the rule has transformations but none
     * is legal here (null otherwise).
     */
    private static String proposeFixes(FunctionContext ctx, SourceModule m, String code, Node at, List<Diagnostic.Fix> out,
                                       List<FunctionContext> moduleFunctions, java.util.Queue<String> errors) {
        List<Transformation> ts = Transformations.forCode(code);
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
                if (reparses(m, p.fix())) out.add(p.fix());
                else reasons.add("internal: the " + p.fix().title() + " rewrite did not parse, so it is not offered");
            } else if (p.declineReason() != null && !reasons.contains(p.declineReason())) {
                reasons.add(p.declineReason());
            }
        }
        // the reasons matter while no safe fix exists: fix-all (safe) leaves the break, and the user should know why
        boolean safe = out.stream().anyMatch(f -> f.safety().equals("safe"));
        if (safe || reasons.isEmpty()) return null;
        return String.join("; ", reasons);
    }

    /**
     * Every offered edit re-parses: the file with the fix applied has no more syntax errors than
     * before. The fixed text is parsed as an editor's change would be, only the statements around
     * the edits: parsing whole files for each of hundreds of offered fixes was most of the analysis
     * of a large package.
     */
    private static boolean reparses(SourceModule m, Diagnostic.Fix fix) {
        PythonDocument doc = m.ir().document();
        String text = doc.text();
        String fixed = FixAll.applyEdits(text, m.ir().lines(), fix.edits());
        int prefix = 0;
        int max = Math.min(text.length(), fixed.length());
        while (prefix < max && text.charAt(prefix) == fixed.charAt(prefix)) prefix++;
        int suffix = 0;
        while (suffix < max - prefix && text.charAt(text.length() - 1 - suffix) == fixed.charAt(fixed.length() - 1 - suffix)) {
            suffix++;
        }
        PythonDocument after = doc.replace(prefix, text.length() - suffix, fixed.substring(prefix, fixed.length() - suffix),
                doc.version() + 1);
        return after.errors().size() <= m.ir().errors().size();
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
            out.add(new Diagnostic(SYNTAX_ERROR, Severity.ERROR,
                    new Span(line, col, endLine, endCol), "Syntax error: " + e.message()
                    + " (GraphMend still analyses the rest of the file)", List.of(), null, List.of(), null));
        }
        return out;
    }

    private static List<Diagnostic> dedupAndSort(List<Diagnostic> list) {
        List<Diagnostic> sorted = new ArrayList<>(list);
        sorted.sort(Comparator.comparingInt((Diagnostic d) -> d.span().line()).thenComparingInt(d -> d.span().col())
                .thenComparing(Diagnostic::code).thenComparing(d -> d.root() == null ? "" : d.root().path())
                .thenComparingInt(d -> d.root() == null ? 0 : d.root().line()));
        Set<String> seen = new HashSet<>();
        List<Diagnostic> out = new ArrayList<>();
        for (Diagnostic d : sorted) {
            if (seen.add(d.code() + "@" + d.span())) out.add(d);
        }
        return out;
    }

    /** Unused-node guard for callers that report on nodes without spans. */
    static boolean positioned(Node n) {
        return n.span() != null;
    }
}
