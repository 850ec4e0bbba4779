package dev.graphmend.ir.symbols;

import dev.graphmend.ir.ast.Node;
import java.util.Arrays;

/**
 * The way back from the nodes of one tree to their {@link Scope} and, for {@code Name} nodes,
 * their {@link Symbol}; nodes are matched by identity (records compare by value).
 *
 * <p>Built for speed, as every edit rebuilds it: the {@link Collector} appends each node, its
 * identity hash (taken while the node is in cache) and its value to plain arrays as it visits,
 * and {@link #freeze} then fills an open-addressing table of entry numbers sized for the exact
 * count, from the stored hashes, without touching a node again. It replaces two
 * {@code IdentityHashMap}s whose growth from a fixed presize (rehashing every node several
 * times) was the largest single cost of building a table. A {@code Name}'s entry holds its
 * symbol only, since the symbol knows its scope.
 *
 * <p>Semantics are those of the two maps it replaces: for a node recorded more than once, the
 * last scope recorded wins, and the last symbol recorded wins.
 */
final class NodeIndex {
    private Node[] nodes;
    private int[] hashes;
    /** Per entry: a {@link Scope}; or a {@link Symbol} evaluated in its own scope; or, rarely, a {@link Both}. */
    private Object[] values;
    private int size;
    /** Open addressing, linear probing: entry index + 1, 0 for an empty slot. */
    private int[] table;

    /** A scope and a symbol that disagree (or a symbol without a scope): never for a tree the parser made. */
    private record Both(Scope scope, Symbol symbol) {}

    NodeIndex(int expected) {
        int cap = Math.max(16, expected);
        nodes = new Node[cap];
        hashes = new int[cap];
        values = new Object[cap];
    }

    /** Records that {@code node} is evaluated in {@code scope}. */
    void put(Node node, Scope scope) {
        int i = size;
        if (i == nodes.length) grow();
        nodes[i] = node;
        hashes[i] = System.identityHashCode(node);
        values[i] = scope;
        size = i + 1;
    }

    /** Records the symbol of a {@code Name} node (normally the node just {@link #put}, in the symbol's scope). */
    void putSymbol(Node node, Symbol symbol) {
        int last = size - 1;
        if (last >= 0 && nodes[last] == node) {
            Object v = values[last];
            values[last] = v == symbol.scope() ? symbol : new Both(scopeIn(v), symbol);
            return;
        }
        // not the node just recorded: an entry that sets only the symbol
        if (size == nodes.length) grow();
        nodes[size] = node;
        hashes[size] = System.identityHashCode(node);
        values[size] = new Both(null, symbol);
        size++;
    }

    /** The number of entries recorded so far (while collecting). */
    int size() {
        return size;
    }

    Node nodeAt(int i) {
        return nodes[i];
    }

    int hashAt(int i) {
        return hashes[i];
    }

    /** Entry {@code i}'s value: a {@link Scope}, a {@link Symbol}, or an internal pair of both (never for a parser tree). */
    Object valueAt(int i) {
        return values[i];
    }

    /** Whether a value is a plain scope or symbol, which {@link #append} can replay. */
    static boolean replayable(Object value) {
        return value instanceof Scope || value instanceof Symbol;
    }

    /**
     * Appends entries recorded earlier (see {@code Collector.Recorded}): {@code codes[i] >= 0}
     * is the scope {@code scopes[codes[i]]}, otherwise the symbol {@code symbols[~codes[i]]}.
     */
    void append(Node[] ns, int[] hs, int[] codes, Scope[] scopes, Symbol[] symbols) {
        int n = ns.length;
        int need = size + n;
        if (need > nodes.length) {
            int cap = Math.max(need, nodes.length * 2);
            nodes = Arrays.copyOf(nodes, cap);
            hashes = Arrays.copyOf(hashes, cap);
            values = Arrays.copyOf(values, cap);
        }
        System.arraycopy(ns, 0, nodes, size, n);
        System.arraycopy(hs, 0, hashes, size, n);
        Object[] vals = values;
        int base = size;
        for (int i = 0; i < n; i++) {
            int c = codes[i];
            vals[base + i] = c >= 0 ? scopes[c] : symbols[~c];
        }
        size = need;
    }

    private void grow() {
        int cap = nodes.length * 2;
        nodes = Arrays.copyOf(nodes, cap);
        hashes = Arrays.copyOf(hashes, cap);
        values = Arrays.copyOf(values, cap);
    }

    /** Ends collection: hashes the nodes into the index. */
    void freeze() {
        int n = size;
        if (nodes.length != n) {
            nodes = Arrays.copyOf(nodes, n);
            values = Arrays.copyOf(values, n);
        }
        int[] h = hashes;
        hashes = null;
        Object[] vals = values;
        Node[] keys = nodes;
        int cap = Integer.highestOneBit(Math.max(4, n) * 2 - 1) << 1; // >= 2n: load factor <= 0.5
        int[] t = new int[cap];
        int mask = cap - 1;
        for (int i = 0; i < n; i++) {
            int slot = spread(h[i]) & mask;
            while (true) {
                int e = t[slot];
                if (e == 0) {
                    t[slot] = i + 1;
                    break;
                }
                if (keys[e - 1] == keys[i]) {
                    vals[e - 1] = merge(vals[e - 1], vals[i]);
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
        table = t;
    }

    /** A node recorded again: the later scope wins, and the later symbol, where it recorded one. */
    private static Object merge(Object earlier, Object later) {
        Scope scope = scopeIn(later);
        if (scope == null) scope = scopeIn(earlier);
        Symbol symbol = symbolIn(later);
        if (symbol == null) symbol = symbolIn(earlier);
        if (symbol == null) return scope == null ? new Both(null, null) : scope;
        return symbol.scope() == scope ? symbol : new Both(scope, symbol);
    }

    private static int spread(int h) {
        return h * 0x9E3779B9 ^ (h >>> 16);
    }

    private int find(Object node) {
        int[] t = table;
        int mask = t.length - 1;
        int slot = spread(System.identityHashCode(node)) & mask;
        while (true) {
            int e = t[slot];
            if (e == 0) return -1;
            if (nodes[e - 1] == node) return e - 1;
            slot = (slot + 1) & mask;
        }
    }

    private static Scope scopeIn(Object v) {
        if (v instanceof Scope) return (Scope) v;
        if (v instanceof Symbol) return ((Symbol) v).scope();
        return v == null ? null : ((Both) v).scope;
    }

    private static Symbol symbolIn(Object v) {
        if (v instanceof Symbol) return (Symbol) v;
        return v instanceof Both ? ((Both) v).symbol : null;
    }

    /** The scope recorded for {@code node}, or null. */
    Scope scopeOf(Object node) {
        int i = find(node);
        return i < 0 ? null : scopeIn(values[i]);
    }

    /** The symbol recorded for {@code node}, or null. */
    Symbol symbolOf(Object node) {
        int i = find(node);
        return i < 0 ? null : symbolIn(values[i]);
    }
}
