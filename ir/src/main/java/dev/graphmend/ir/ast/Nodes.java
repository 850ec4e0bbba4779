package dev.graphmend.ir.ast;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Helpers shared by the generated node records. */
public final class Nodes {
    private Nodes() {}

    /** Each element shifted by {@code delta} lines (nulls kept). */
    @SuppressWarnings("unchecked")
    public static <T extends Node> List<T> shift(List<T> list, int delta) {
        if (delta == 0 || list.isEmpty()) return list;
        List<T> out = new ArrayList<>(list.size());
        for (T t : list) out.add(t == null ? null : (T) t.shiftLines(delta));
        return out;
    }

    /** An unmodifiable copy; unlike List.copyOf it keeps nulls (CPython's Dict.keys, kw_defaults). */
    public static <T> List<T> freeze(List<T> list) {
        if (list == null || list.isEmpty()) return List.of();
        return Collections.unmodifiableList(new ArrayList<>(list));
    }
}
