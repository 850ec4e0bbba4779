package dev.graphmend.ir.ast;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Helpers shared by the generated node records. */
public final class Nodes {
    private Nodes() {}

    /** An unmodifiable copy; unlike List.copyOf it keeps nulls (CPython's Dict.keys, kw_defaults). */
    public static <T> List<T> freeze(List<T> list) {
        if (list == null || list.isEmpty()) return List.of();
        return Collections.unmodifiableList(new ArrayList<>(list));
    }
}
