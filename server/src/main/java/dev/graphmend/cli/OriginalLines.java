package dev.graphmend.cli;

import com.github.difflib.DiffUtils;
import com.github.difflib.patch.AbstractDelta;
import dev.graphmend.passes.model.Diagnostic;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Maps a line of an edited text back to the line of the text before the edits, so that every
 * line {@code fix} prints is the original file's. A line that an edit wrote (inserted or
 * replaced text) maps to the line where that edit starts; the lines around the edits move by
 * what the edits above them added or removed.
 */
final class OriginalLines {
    /** One changed stretch: lines {@code newFirst..newLast} of the edited text came from {@code oldFirst}; below it lines moved by {@code shiftAfter}. */
    private record Change(int newFirst, int newLast, int oldFirst, int shiftAfter) {}

    private final List<Change> changes;

    private OriginalLines(List<Change> changes) {
        this.changes = changes;
    }

    /** The map of one round of non-overlapping engine edits (CPython spans, 1-based lines) applied to a text. */
    static OriginalLines ofEdits(List<Diagnostic.Edit> edits) {
        List<Diagnostic.Edit> sorted = new ArrayList<>(edits);
        sorted.sort(Comparator.<Diagnostic.Edit>comparingInt(e -> e.span().line()).thenComparingInt(e -> e.span().col()));
        List<Change> out = new ArrayList<>();
        int shift = 0;
        for (Diagnostic.Edit e : sorted) {
            int first = e.span().line() + shift, added = lineBreaks(e.newText());
            shift += added - (e.span().endLine() - e.span().line());
            out.add(new Change(first, first + added, e.span().line(), shift));
        }
        return new OriginalLines(out);
    }

    /** The map between two whole texts, as a line diff finds their changes. */
    static OriginalLines ofDiff(String before, String after) {
        List<Change> out = new ArrayList<>();
        for (AbstractDelta<String> d : DiffUtils.diff(SafeWrite.lines(before), SafeWrite.lines(after)).getDeltas()) {
            int p = d.getSource().getPosition(), n = d.getSource().size(), q = d.getTarget().getPosition(), m = d.getTarget().size();
            out.add(new Change(q + 1, q + m, p + 1, q + m - p - n));
        }
        return new OriginalLines(out);
    }

    /**
     * The line of the text before the edits for a 1-based line of {@code round}'s text, given the
     * edits of each round in order ({@code round} rounds applied: 0 is the original itself).
     */
    static int through(List<List<Diagnostic.Edit>> rounds, int round, int line) {
        for (int k = Math.min(round, rounds.size()) - 1; k >= 0; k--) line = ofEdits(rounds.get(k)).original(line);
        return line;
    }

    /** The original line of a 1-based line of the edited text. */
    int original(int line) {
        int shift = 0;
        for (Change c : changes) {
            if (line < c.newFirst()) break;
            if (line <= c.newLast()) return c.oldFirst();
            shift = c.shiftAfter();
        }
        return line - shift;
    }

    /** Line breaks in an edit's text, as Python counts them (LF, CRLF, CR). */
    private static int lineBreaks(String s) {
        return SafeWrite.lines(s + "x").size() - 1;
    }
}
