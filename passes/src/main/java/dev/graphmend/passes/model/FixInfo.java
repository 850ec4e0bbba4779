package dev.graphmend.passes.model;

/**
 * A fix's metadata, declared by its transformation: the name its rule page gives it (a
 * {@code ### name (safety)} heading under "Fixes"), its safety, and the first torch-version it is
 * offered for (null: every version the rules know). A site may make a safe fix unsafe (the fix's
 * note says why), never the reverse.
 */
public record FixInfo(String name, Safety safety, String sinceTorch) {
    public FixInfo {
        if (name == null || name.isBlank() || safety == null) throw new IllegalArgumentException("a fix needs a name and a safety");
    }

    public FixInfo(String name, Safety safety) {
        this(name, safety, null);
    }

    /** The heading of the fix's section on its rule page: {@code Print inside the graph (safe, torch-version 2.15 and later)}. */
    public String heading() {
        return name + " (" + safety.id + (sinceTorch == null ? "" : ", torch-version " + sinceTorch + " and later") + ")";
    }
}
