package dev.graphmend.passes.fix;

import dev.graphmend.passes.model.Diagnostic;

/** A transformation's answer at one site: a fix, or the reason it is not legal there. */
public record Proposal(Diagnostic.Fix fix, String declineReason) {
    public static Proposal of(Diagnostic.Fix fix) {
        return new Proposal(fix, null);
    }

    public static Proposal decline(String reason) {
        return new Proposal(null, reason);
    }

    /** The site is not one this transformation rewrites at all (no reason to show the user). */
    public static Proposal notApplicable() {
        return new Proposal(null, null);
    }

    public boolean offered() {
        return fix != null;
    }
}
