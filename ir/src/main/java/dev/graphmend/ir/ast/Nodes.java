package dev.graphmend.ir.ast;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.RandomAccess;

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
        if (list instanceof Frozen<T> || list instanceof Single<T>) return list;
        if (list.size() == 1) return new Single<>(list.get(0)); // most bodies, targets, arguments
        return new Frozen<>(list.toArray());
    }

    /**
     * The AST's lists: an exact-size array and nothing else. They are a third of a parsed file's
     * objects, and an unmodifiable view over an ArrayList costs two more objects per list (a
     * workspace of 2,900 files holds 1.8 million).
     */
    private static final class Frozen<T> extends AbstractList<T> implements RandomAccess {
        private final Object[] items;

        Frozen(Object[] items) { this.items = items; }

        @SuppressWarnings("unchecked")
        @Override public T get(int i) { return (T) items[i]; }

        @Override public int size() { return items.length; }
    }

    /** A list of one element (which may be null), without an array. */
    private static final class Single<T> extends AbstractList<T> implements RandomAccess {
        private final T item;

        Single(T item) { this.item = item; }

        @Override public T get(int i) {
            if (i != 0) throw new IndexOutOfBoundsException("index " + i + " of a list of one");
            return item;
        }

        @Override public int size() { return 1; }
    }
}
