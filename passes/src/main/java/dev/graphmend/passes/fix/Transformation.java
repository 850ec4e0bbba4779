package dev.graphmend.passes.fix;

/**
 * One source rewrite for one rule, with its legality check (ruff's "fix" beside its rule): given
 * the site of a diagnostic it either proposes a fix (safe or unsafe, with its edits) or declines
 * with the reason the user sees in hover and in the diagnostic's {@code noFixReason}.
 */
public interface Transformation {
    /** The rule whose diagnostics this rewrites ({@code GM101}). */
    String code();

    Proposal propose(FixSite site);
}
