package dev.graphmend.passes.model;

/**
 * Whether a fix keeps behaviour (docs/rules/README.md, "Fix safety"), as ruff's Applicability:
 * {@code SAFE}, the same observable behaviour for every input, applied by fix-all; {@code UNSAFE},
 * behaviour changes and the preview says how, applied only with unsafe fixes enabled.
 */
public enum Safety {
    SAFE("safe"), UNSAFE("unsafe");

    /** The name in JSON, in change annotation ids and in messages. */
    public final String id;

    Safety(String id) { this.id = id; }

    public boolean isSafe() { return this == SAFE; }

    /** Whether fix-all applies a fix of this safety, given whether unsafe fixes are enabled. */
    public boolean applies(boolean unsafeFixes) { return this == SAFE || unsafeFixes; }

    @Override public String toString() { return id; }
}
