package dev.graphmend.passes;

import dev.graphmend.passes.model.Safety;
import dev.graphmend.passes.fix.GuardedOp;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.document.PythonDocument;
import dev.graphmend.ir.source.LineIndex;
import dev.graphmend.passes.Analyzer;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.model.Edits;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Fix-all for one file, as ruff does it: analyse, apply every legal fix that does not overlap an
 * earlier one in this round (safe ones only unless unsafe fixes are enabled), re-parse, and
 * repeat until a round applies nothing (at most {@value #MAX_ROUNDS} rounds). A round whose
 * result does not parse is thrown away, so the text that comes out always parses when the text
 * that went in did.
 */
public final class FixAll {
    static final int MAX_ROUNDS = 10;

    private FixAll() {}

    /**
     * A fix that was applied: the rule, where (1-based line in the text it was applied to) and its
     * title; {@code round}: how many rounds had changed the text before it (0: the line is the
     * original's; see {@link Result#roundEdits}).
     */
    public record Applied(String code, int line, String title, Safety safety, int round) {
        public Applied(String code, int line, String title, Safety safety) { this(code, line, title, safety, 0); }
    }

    /**
     * A diagnostic left in place, and why (no legal fix, or an unsafe one while unsafe fixes are off);
     * {@code unsafeFixAvailable}: an unsafe fix exists and would apply with unsafe fixes enabled.
     */
    public record Declined(String code, int line, String reason, boolean unsafeFixAvailable) {}

    /**
     * {@code internalErrors}: what the analyses of the rounds could not handle (see {@link Findings}).
     * {@code roundEdits}: the edits of each round that changed the text, in order, each in the
     * lines of the text that round started from; a {@link Declined} line is in the text after
     * all of them. With them a caller maps the lines back to the original text.
     */
    public record Result(String text, List<Applied> applied, List<Declined> declined, int rounds, List<String> internalErrors,
                         List<List<Diagnostic.Edit>> roundEdits) {
        public Result(String text, List<Applied> applied, List<Declined> declined, int rounds, List<String> internalErrors) {
            this(text, applied, declined, rounds, internalErrors, List.of());
        }

        public boolean changed(String original) { return !text.equals(original); }
    }

    /**
     * @param file the file's path (for module naming; it need not exist)
     * @param others the other files of the project, for cross-file compile regions (may be empty)
     */
    public static Result apply(Path file, String text, AnalysisConfig config, List<SourceModule> others) {
        List<Applied> applied = new ArrayList<>();
        List<String> internalErrors = new ArrayList<>();
        String current = text;
        int rounds = 0;
        List<Diagnostic> remaining = List.of();
        SourceModule module = ProjectLoader.module(file, file.toString(), current);
        java.util.Set<String> usedImports = importedNamesInUse(module);
        Project[] round = {null}; // the previous round's project: the next one keeps what the edits did not touch
        List<List<Diagnostic.Edit>> roundEdits = new ArrayList<>();
        while (rounds < MAX_ROUNDS) {
            remaining = analyse(module, others, config, internalErrors, round);
            List<Diagnostic.Fix> chosen = new ArrayList<>();
            List<Diagnostic> chosenFor = new ArrayList<>();
            java.util.TreeMap<Long, Span> taken = new java.util.TreeMap<>(); // by start; disjoint
            for (Diagnostic d : remaining) {
                // a safe fix is taken over an unsafe one even with unsafe fixes enabled (ruff does the same);
                // when the safe one overlaps an edit of this round, the site waits for the next round
                // instead of falling back to its unsafe fix
                boolean hasSafe = d.fixes().stream().anyMatch(f -> f.safety().isSafe());
                for (Diagnostic.Fix f : d.fixes()) {
                    if (!f.safety().isSafe() && (hasSafe || !config.unsafeFixes())) continue;
                    if (overlaps(f, taken)) continue;
                    chosen.add(f);
                    chosenFor.add(d);
                    for (Diagnostic.Edit e : f.edits()) taken.put(start(e.span()), e.span());
                    break;
                }
            }
            if (chosen.isEmpty()) break;
            String next = Edits.apply(current, module.ir().lines(), editsOf(chosen));
            rounds++;
            // the next round's module is the parse that checks the edits (one parse of the file a round:
            // a large file's parse trees were most of a fix-all's memory and collection time)
            SourceModule nextModule = next.equals(current) ? null : ProjectLoader.module(file, file.toString(), next);
            if (nextModule != null && nextModule.ir().errors().size() > module.ir().errors().size()) {
                // the edits were built unchecked: one fix (a bug of ours) broke the parse; check each
                // alone, leave out those that do not parse, and apply the rest
                for (int i = chosen.size() - 1; i >= 0; i--) {
                    if (Analyzer.reparses(module, chosen.get(i))) continue;
                    internalErrors.add(file + ":" + chosenFor.get(i).span().line() + " " + chosenFor.get(i).code()
                            + ": internal error: the " + chosen.get(i).title() + " rewrite did not parse, so it was not applied");
                    chosen.remove(i);
                    chosenFor.remove(i);
                }
                next = Edits.apply(current, module.ir().lines(), editsOf(chosen));
                nextModule = next.equals(current) ? null : ProjectLoader.module(file, file.toString(), next);
            }
            if (nextModule == null) break; // a fix that changes nothing ends the loop
            if (nextModule.ir().errors().size() > module.ir().errors().size()) break; // so does one that breaks the parse
            for (int i = 0; i < chosen.size(); i++) {
                Diagnostic d = chosenFor.get(i);
                applied.add(new Applied(d.code(), d.span().line(), chosen.get(i).title(), chosen.get(i).safety(), roundEdits.size()));
            }
            roundEdits.add(editsOf(chosen));
            current = next;
            module = nextModule;
        }
        List<Declined> declined = new ArrayList<>();
        for (Diagnostic d : remaining) {
            if (d.code().equals("GM000")) continue;
            String reason;
            boolean unsafeAvailable = false;
            if (d.fixes().isEmpty()) {
                reason = d.noFixReason() != null ? d.noFixReason() : "the rule has no source rewrite for this break";
            } else if (d.fixes().stream().allMatch(f -> !f.safety().isSafe()) && !config.unsafeFixes()) {
                reason = (d.noFixReason() != null ? "no safe fix: " + d.noFixReason() + "; " : "")
                        + "an unsafe fix applies with unsafe fixes enabled (" + d.fixes().get(0).title() + ")";
                unsafeAvailable = true;
            } else {
                reason = "its fix (" + d.fixes().get(0).title() + ") did not converge in " + MAX_ROUNDS + " rounds";
            }
            declined.add(new Declined(d.code(), d.span().line(), reason, unsafeAvailable));
        }
        if (!applied.isEmpty()) current = dropImportsMadeUnused(module, usedImports, current);
        return new Result(applied.isEmpty() ? current : GuardedOp.renumbered(current), applied, declined, rounds, internalErrors,
                roundEdits);
    }

    /**
     * One round's diagnostics of {@code module}, its fixes' edits built. Only the diagnostics outlive
     * the call: the analysis behind them (compile regions, inferred values) is garbage before the
     * next round parses the fixed text.
     */
    private static List<Diagnostic> analyse(SourceModule module, List<SourceModule> others, AnalysisConfig config,
                                            List<String> internalErrors, Project[] previous) {
        List<SourceModule> all = new ArrayList<>(others);
        all.add(module);
        // the other modules are the same objects every round: Project.next keeps their classes'
        // inferred facts (attributes, submodules), which a new Project infers again for the whole
        // neighbourhood each round (most of a package-wide fix's time)
        Project project = previous[0] == null ? new Project(all, config) : Project.next(previous[0], all, config);
        previous[0] = project;
        Findings found = Analyzer.analyze(project, module, null, true);
        for (String e : found.internalErrors()) if (!internalErrors.contains(e)) internalErrors.add(e);
        return found.get(module);
    }

    /**
     * Removes each module-level {@code import x} (one name, one line) whose name the original text
     * used and the fixed text no longer uses: the rewrites took its last use (a {@code warnings.warn}
     * that became an in-graph warning), and left in place it is unused (ruff's F401). A quick fix
     * removes the import itself when its call is the last use; fix-all rewrites many calls in one
     * round, none of which is the last on its own.
     */
    private static String dropImportsMadeUnused(SourceModule after, java.util.Set<String> usedBefore, String fixed) {
        if (!after.ir().errors().isEmpty() || !after.ir().document().text().equals(fixed)) return fixed;
        List<Diagnostic.Edit> removals = new ArrayList<>();
        for (dev.graphmend.ir.ast.Stmt st : after.ir().module().body()) {
            String bound = singleImportName(st);
            if (bound == null || !usedBefore.contains(bound) || after.nameUses(bound) > 0) continue;
            int line = st.span().line();
            if (after.ir().lines().lineText(line).contains(";")) continue;
            removals.add(line < after.ir().lines().lineCount()
                    ? new Diagnostic.Edit(new Span(line, 0, line + 1, 0), "")
                    : new Diagnostic.Edit(new Span(line, 0, line, st.span().endCol()), ""));
        }
        if (removals.isEmpty()) return fixed;
        String out = Edits.apply(fixed, after.ir().lines(), removals);
        return PythonDocument.open(out, 0).errors().isEmpty() ? out : fixed;
    }

    /** The names module-level one-name, one-line imports bind that the module uses. */
    private static java.util.Set<String> importedNamesInUse(SourceModule m) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (dev.graphmend.ir.ast.Stmt st : m.ir().module().body()) {
            String bound = singleImportName(st);
            if (bound != null && m.nameUses(bound) > 0) out.add(bound);
        }
        return out;
    }

    /** The name an {@code import x} / {@code import x.y} / {@code import x as y} statement of one name and one line binds; else null. */
    private static String singleImportName(dev.graphmend.ir.ast.Stmt st) {
        if (!(st instanceof dev.graphmend.ir.ast.Stmt.Import imp) || imp.names().size() != 1
                || imp.span().line() != imp.span().endLine() || imp.span().col() != 0) {
            return null;
        }
        var alias = imp.names().get(0);
        return alias.asname() != null ? alias.asname() : alias.name().split("\\.")[0];
    }

    private static List<Diagnostic.Edit> editsOf(List<Diagnostic.Fix> fixes) {
        List<Diagnostic.Edit> edits = new ArrayList<>();
        for (Diagnostic.Fix f : fixes) edits.addAll(f.edits());
        return edits;
    }

    /** Whether an edit of the fix overlaps a taken edit (the taken ones are disjoint: only the neighbours can). */
    private static boolean overlaps(Diagnostic.Fix f, java.util.TreeMap<Long, Span> taken) {
        for (Diagnostic.Edit e : f.edits()) {
            var below = taken.floorEntry(start(e.span()));
            var above = taken.ceilingEntry(start(e.span()));
            for (var t : java.util.Arrays.asList(below, above)) {
                if (t == null || before(e.span(), t.getValue()) || before(t.getValue(), e.span())) continue;
                return true;
            }
        }
        return false;
    }

    private static long start(Span s) {
        return ((long) s.line() << 32) | (s.col() & 0xffffffffL);
    }

    /** a ends at or before b starts (empty insertions at the same point count as overlapping). */
    private static boolean before(Span a, Span b) {
        if (a.endLine() != b.line()) return a.endLine() < b.line();
        return a.endCol() < b.col() || a.endCol() == b.col() && !(a.line() == a.endLine() && a.col() == a.endCol()
                && b.line() == b.endLine() && b.col() == b.endCol());
    }

    /**
     * The modules that can matter to the compile regions of {@code focus}: its {@link
     * #neighbourhood(SourceModule, List) neighbours}, and the modules on import paths from the
     * files holding the compile roots of its {@code diagnostics} (from an analysis of the whole
     * {@code project}, whose modules {@code all} lists in the order to keep): a helper may be
     * imported only through its package's re-export (transformers' utils), which no direct
     * import shows.
     */
    public static List<SourceModule> neighbourhood(SourceModule focus, List<SourceModule> all, Project project,
                                                   List<Diagnostic> diagnostics) {
        List<SourceModule> out = neighbourhood(focus, all);
        java.util.Set<String> rootPaths = new java.util.HashSet<>();
        for (Diagnostic d : diagnostics) if (d.root() != null) rootPaths.add(d.root().path());
        List<SourceModule> rootModules = all.stream().filter(m -> rootPaths.contains(m.path())).toList();
        java.util.Set<SourceModule> have = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        have.addAll(out);
        have.add(focus);
        for (SourceModule m : project.modulesBetween(rootModules, focus)) if (have.add(m)) out.add(m);
        return out;
    }

    /**
     * The modules that can matter to the compile regions of {@code focus}: those it imports from,
     * those that import it, and its siblings in the same folder. Fix-all of one file analyses
     * these, not the whole project (whose size would make fixing a package quadratic).
     */
    public static List<SourceModule> neighbourhood(SourceModule focus, List<SourceModule> all) {
        java.util.Set<String> imported = new java.util.HashSet<>();
        for (var imp : focus.names().imports().all()) if (imp.qualifiedName() != null) imported.add(imp.qualifiedName());
        String dir = parentOf(focus.path());
        List<SourceModule> out = new ArrayList<>();
        for (SourceModule m : all) {
            if (m == focus) continue;
            boolean near = dir.equals(parentOf(m.path()));
            for (String q : imported) near |= q.equals(m.moduleName()) || q.startsWith(m.moduleName() + ".");
            if (!near) {
                for (var imp : m.names().imports().all()) {
                    String q = imp.qualifiedName();
                    if (q != null && (q.equals(focus.moduleName()) || q.startsWith(focus.moduleName() + "."))) {
                        near = true;
                        break;
                    }
                }
            }
            if (near) out.add(m);
        }
        return out;
    }

    private static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "" : path.substring(0, slash);
    }
}
