package dev.graphmend.passes.fix;

import dev.graphmend.passes.model.Safety;
import dev.graphmend.passes.model.Diagnostic;
import java.util.List;
import java.util.function.Supplier;

/**
 * A transformation's answer at one site: a fix, or the reason it is not legal there. An offered
 * fix is decided (legal, with its title, safety and note) before its edits exist: the analysis
 * asks only whether a legal fix exists, and the edits are built when someone applies or previews
 * it (as rust-analyzer builds an assist's edit only when the user picks it).
 */
public final class Proposal {
    private final String title;
    private final Safety safety;
    private final String note;
    private final Supplier<List<Diagnostic.Edit>> edits;
    private final String declineReason;

    private Proposal(String title, Safety safety, String note, Supplier<List<Diagnostic.Edit>> edits, String declineReason) {
        this.title = title;
        this.safety = safety;
        this.note = note;
        this.edits = edits;
        this.declineReason = declineReason;
    }

    /** A fix whose edits were built while deciding it was legal. */
    public static Proposal of(Diagnostic.Fix fix) {
        List<Diagnostic.Edit> edits = fix.edits();
        return new Proposal(fix.title(), fix.safety(), fix.note(), () -> edits, null);
    }

    /** A legal fix whose edits {@code edits} builds when they are asked for (it must not decline then). */
    public static Proposal lazy(String title, Safety safety, String note, Supplier<List<Diagnostic.Edit>> edits) {
        return new Proposal(title, safety, note, edits, null);
    }

    public static Proposal decline(String reason) {
        return new Proposal(null, null, null, null, reason);
    }

    /** The site is not one this transformation rewrites at all (no reason to show the user). */
    public static Proposal notApplicable() {
        return new Proposal(null, null, null, null, null);
    }

    public boolean offered() {
        return edits != null;
    }

    /** Why the fix is not legal here; null when offered or not applicable. */
    public String declineReason() {
        return declineReason;
    }

    /** The offered fix with its edits, built by this call. */
    public Diagnostic.Fix fix() {
        return new Diagnostic.Fix(title, safety, List.copyOf(edits.get()), note);
    }

    /** The offered fix as a diagnostic describes it, its edits not built ({@link Diagnostic.Fix#hasEdits()} false). */
    public Diagnostic.Fix described() {
        return new Diagnostic.Fix(title, safety, null, note);
    }
}
