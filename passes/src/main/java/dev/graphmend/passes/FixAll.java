package dev.graphmend.passes;

import dev.graphmend.passes.fix.GuardedOp;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.document.PythonDocument;
import dev.graphmend.ir.source.LineIndex;
import dev.graphmend.passes.Analyzer;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
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

    /** A fix that was applied: the rule, where (1-based line in the text it was applied to) and its title. */
    public record Applied(String code, int line, String title, String safety) {}

    /** A diagnostic left in place, and why (no legal fix, or an unsafe one while unsafe fixes are off). */
    public record Declined(String code, int line, String reason) {}

    /** {@code internalErrors}: what the analyses of the rounds could not handle (see {@link Findings}). */
    public record Result(String text, List<Applied> applied, List<Declined> declined, int rounds, List<String> internalErrors) {
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
        SourceModule module = null;
        while (rounds < MAX_ROUNDS) {
            module = ProjectLoader.module(file, file.toString(), current);
            List<SourceModule> all = new ArrayList<>(others);
            all.add(module);
            Findings found = Analyzer.analyze(new Project(all, config), module);
            for (String e : found.internalErrors()) if (!internalErrors.contains(e)) internalErrors.add(e);
            remaining = found.get(module);
            List<Diagnostic.Fix> chosen = new ArrayList<>();
            List<Diagnostic> chosenFor = new ArrayList<>();
            List<Span> taken = new ArrayList<>();
            for (Diagnostic d : remaining) {
                // a safe fix is taken over an unsafe one even with unsafe fixes enabled (ruff does the same);
                // when the safe one overlaps an edit of this round, the site waits for the next round
                // instead of falling back to its unsafe fix
                boolean hasSafe = d.fixes().stream().anyMatch(f -> f.safety().equals("safe"));
                for (Diagnostic.Fix f : d.fixes()) {
                    if (f.safety().equals("unsafe") && (hasSafe || !config.unsafeFixes())) continue;
                    if (overlaps(f, taken)) continue;
                    chosen.add(f);
                    chosenFor.add(d);
                    for (Diagnostic.Edit e : f.edits()) taken.add(e.span());
                    break;
                }
            }
            if (chosen.isEmpty()) break;
            List<Diagnostic.Edit> edits = new ArrayList<>();
            for (Diagnostic.Fix f : chosen) edits.addAll(f.edits());
            String next = applyEdits(current, module.ir().lines(), edits);
            rounds++;
            if (next.equals(current) || !PythonDocument.open(next, 0).errors().isEmpty()
                    && PythonDocument.open(current, 0).errors().isEmpty()) {
                break; // a fix that changes nothing, or breaks the parse, ends the loop
            }
            for (int i = 0; i < chosen.size(); i++) {
                Diagnostic d = chosenFor.get(i);
                applied.add(new Applied(d.code(), d.span().line(), chosen.get(i).title(), chosen.get(i).safety()));
            }
            current = next;
        }
        List<Declined> declined = new ArrayList<>();
        for (Diagnostic d : remaining) {
            if (d.code().equals("GM000")) continue;
            String reason;
            if (d.fixes().isEmpty()) {
                reason = d.noFixReason() != null ? d.noFixReason() : "the rule has no source rewrite for this break";
            } else if (d.fixes().stream().allMatch(f -> f.safety().equals("unsafe")) && !config.unsafeFixes()) {
                reason = (d.noFixReason() != null ? "no safe fix: " + d.noFixReason() + "; " : "")
                        + "an unsafe fix applies with unsafe fixes enabled (" + d.fixes().get(0).title() + ")";
            } else {
                reason = "its fix (" + d.fixes().get(0).title() + ") did not converge in " + MAX_ROUNDS + " rounds";
            }
            declined.add(new Declined(d.code(), d.span().line(), reason));
        }
        return new Result(applied.isEmpty() ? current : GuardedOp.renumbered(current), applied, declined, rounds, internalErrors);
    }

    private static boolean overlaps(Diagnostic.Fix f, List<Span> taken) {
        for (Diagnostic.Edit e : f.edits()) {
            for (Span t : taken) {
                if (before(e.span(), t) || before(t, e.span())) continue;
                return true;
            }
        }
        return false;
    }

    /** a ends at or before b starts (empty insertions at the same point count as overlapping). */
    private static boolean before(Span a, Span b) {
        if (a.endLine() != b.line()) return a.endLine() < b.line();
        return a.endCol() < b.col() || a.endCol() == b.col() && !(a.line() == a.endLine() && a.col() == a.endCol()
                && b.line() == b.endLine() && b.col() == b.endCol());
    }

    /**
     * Applies non-overlapping edits given in CPython spans (1-based lines, UTF-8 columns) to the
     * text, keeping its line endings: offsets are found on the text's own lines (LF, CRLF or CR),
     * whose contents are those the line index describes.
     */
    public static String applyEdits(String text, LineIndex lines, List<Diagnostic.Edit> edits) {
        record Abs(int start, int end, String newText) {}
        List<Integer> starts = lineStarts(text);
        List<Abs> abs = new ArrayList<>();
        for (Diagnostic.Edit e : edits) {
            abs.add(new Abs(offset(text, starts, lines, e.span().line(), e.span().col()),
                    offset(text, starts, lines, e.span().endLine(), e.span().endCol()), e.newText()));
        }
        abs.sort(Comparator.comparingInt(Abs::start).thenComparingInt(Abs::end));
        StringBuilder b = new StringBuilder(text.length() + 64);
        int at = 0;
        for (Abs a : abs) {
            if (a.start() < at) continue; // overlapping: keep the first
            b.append(text, at, a.start()).append(a.newText());
            at = a.end();
        }
        b.append(text, at, text.length());
        return b.toString();
    }

    /** UTF-16 offset in {@code text} of a 1-based line and UTF-8 byte column. */
    static int offset(String text, List<Integer> starts, LineIndex lines, int line, int utf8Col) {
        int l = Math.max(1, Math.min(line, Math.min(lines.lineCount(), starts.size())));
        int start = starts.get(l - 1);
        int cpCol = lines.cpColumnFromUtf8(l, utf8Col);
        int at = start;
        for (int i = 0; i < cpCol && at < text.length(); i++) at += Character.charCount(text.codePointAt(at));
        return at;
    }

    /** Offsets where each line of the text starts; LF, CRLF and lone CR end lines, as in Python. */
    static List<Integer> lineStarts(String text) {
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n')) starts.add(i + 1);
        }
        return starts;
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

    /** Counts of applied fixes by code, for reports. */
    public static Map<String, Integer> countByCode(List<Applied> applied) {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (Applied a : applied) m.merge(a.code(), 1, Integer::sum);
        return m;
    }
}
