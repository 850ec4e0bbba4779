package dev.graphmend.ir.symbols;

import dev.graphmend.ir.symbols.Analyzer.Entry;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * The names of one scope, in the order they were first added: an open-addressing hash index
 * over an array of entries, each entry keyed by its own {@link Entry#name}. Used in place of a
 * {@code LinkedHashMap<String, ...>} because it is built afresh for every scope on every edit:
 * it allocates no node per name, boxes nothing, and iterates over a plain array. The pass-1
 * collector, the analysis and the finished {@link Scope} share one instance, so a scope's
 * symbols are never copied from one map into another.
 */
final class SymbolMap {
    private Entry[] entries;
    private int size;
    /** entry index + 1, 0 for an empty slot; at most half full. */
    private int[] slots;
    private List<Symbol> symbolView;

    SymbolMap(int expected) {
        int cap = Math.max(2, expected);
        entries = new Entry[cap];
        slots = new int[tableSize(cap)];
    }

    private static int tableSize(int n) {
        return Integer.highestOneBit(Math.max(2, n) * 2 - 1) << 1; // the least power of two >= 2n
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }

    int size() {
        return size;
    }

    /** The {@code i}th entry in insertion order. */
    Entry at(int i) {
        return entries[i];
    }

    Entry get(String name) {
        int[] t = slots;
        int mask = t.length - 1;
        int i = spread(name.hashCode()) & mask;
        while (true) {
            int e = t[i];
            if (e == 0) return null;
            Entry x = entries[e - 1];
            String k = x.name;
            if (k == name || k.equals(name)) return x;
            i = (i + 1) & mask;
        }
    }

    /** Appends an entry whose name is not in the map yet. */
    void add(Entry entry) {
        if (size == entries.length) entries = Arrays.copyOf(entries, size * 2);
        entries[size++] = entry;
        if (size * 2 > slots.length) {
            rehash(tableSize(size * 2));
        } else {
            insert(slots, entry.name, size);
        }
    }

    private static void insert(int[] t, String name, int number) {
        int mask = t.length - 1;
        int i = spread(name.hashCode()) & mask;
        while (t[i] != 0) i = (i + 1) & mask;
        t[i] = number;
    }

    private void rehash(int tableSize) {
        int[] t = new int[tableSize];
        for (int j = 0; j < size; j++) insert(t, entries[j].name, j + 1);
        slots = t;
    }

    /** Removes the entry for {@code name}, if any, keeping the order of the others. */
    void remove(String name) {
        for (int j = 0; j < size; j++) {
            if (entries[j].name.equals(name)) {
                System.arraycopy(entries, j + 1, entries, j, size - j - 1);
                entries[--size] = null;
                rehash(slots.length);
                return;
            }
        }
    }

    /**
     * The entries as an unmodifiable list of {@link Symbol}s, for a map whose entries are all
     * symbols (a {@link Scope}'s); a view, so it is only handed out once the table is built.
     */
    List<Symbol> symbols() {
        List<Symbol> v = symbolView;
        if (v == null) symbolView = v = new SymbolList();
        return v;
    }

    private final class SymbolList extends AbstractList<Symbol> implements RandomAccess {
        @Override
        public Symbol get(int index) {
            if (index < 0 || index >= size) throw new IndexOutOfBoundsException(index);
            return (Symbol) entries[index];
        }

        @Override
        public int size() {
            return size;
        }
    }
}
