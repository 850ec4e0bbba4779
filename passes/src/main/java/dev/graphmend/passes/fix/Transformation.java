package dev.graphmend.passes.fix;

import dev.graphmend.passes.model.FixInfo;

/**
 * One source rewrite for one rule, with its legality check (ruff's "fix" beside its rule): given
 * the site of a diagnostic it either proposes a fix (safe or unsafe, with its edits) or declines
 * with the reason the user sees in hover and in the diagnostic's {@code noFixReason}. Which rule a
 * transformation fixes is declared in the rule registry (passes/registry).
 */
public interface Transformation {
    /** The fix's name, safety and first torch version, as its rule page documents them. */
    FixInfo info();

    Proposal propose(FixSite site);
}
