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
 *
 * <p>A table built from a previous version's ({@code SymbolTable.build(module, previous)}) does
 * not copy the entries of the function bodies it replays: each such body's record keeps its
 * entries with an identity table of its own, shared by every version that replays it, and a
 * node this index does not hold is looked up in the bodies whose lines span the node's first
 * line. Replayed bodies hold nodes of their own subtree only, which no other entry holds in a
 * parser's tree, so this answers what one table over all entries would.
 */
final class NodeIndex {
    private Node[] nodes;
    private int[] hashes;
    /** Per entry: a {@link Scope}; or a {@link Symbol} evaluated in its own scope; or, rarely, a {@link Both}. */
    private Object[] values;
    private int size;
    /** Open addressing, linear probing: entry index + 1, 0 for an empty slot. */
    private int[] table;

    /**
     * Replayed function bodies (see {@link #addSegment}), and after {@link #freeze} in order of
     * their first line, with {@link #segmentReach} the greatest last line of each and all before it.
     */
    private Collector.Recorded[] segments = new Collector.Recorded[0];
    private Scope[][] segmentScopes = new Scope[0][];
    private Symbol[][] segmentSymbols = new Symbol[0][];
    private int segmentCount;
    private int[] segmentReach;

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

    /** Entry {@code i}'s value: a {@link Scope}, a {@link Symbol}, or an internal pair of both (never for a parser tree). */
    Object valueAt(int i) {
        return values[i];
    }

    /**
     * Adds a function body's entries recorded earlier (see {@code Collector.Recorded}), with
     * {@code scopes} and {@code symbols} the copies its scope and symbol numbers now stand for.
     * They are not copied: the record's own identity table serves them, found by the node's line.
     * Entries of nodes without a position (which cannot be found by line) are appended here.
     */
    void addSegment(Collector.Recorded r, Scope[] scopes, Symbol[] symbols) {
        for (int e : r.spanless) {
            int c = r.codes[e];
            Node n = r.nodes[e];
            if (size == nodes.length) grow();
            nodes[size] = n;
            hashes[size] = System.identityHashCode(n);
            values[size] = c >= 0 ? scopes[c] : symbols[~c];
            size++;
        }
        if (segmentCount == segments.length) {
            segments = Arrays.copyOf(segments, Math.max(8, segmentCount * 2));
            segmentScopes = Arrays.copyOf(segmentScopes, segments.length);
            segmentSymbols = Arrays.copyOf(segmentSymbols, segments.length);
        }
        segments[segmentCount] = r;
        segmentScopes[segmentCount] = scopes;
        segmentSymbols[segmentCount] = symbols;
        segmentCount++;
    }

    /**
     * An open-addressing identity table over {@code ns} (entry index + 1 per slot), or null if a
     * node occurs twice (never in a parser's tree; such a body is then not recorded).
     */
    static int[] identityTable(Node[] ns) {
        int n = ns.length;
        int cap = Integer.highestOneBit(Math.max(4, n) * 2 - 1) << 1;
        int[] t = new int[cap];
        int mask = cap - 1;
        for (int i = 0; i < n; i++) {
            int slot = spread(System.identityHashCode(ns[i])) & mask;
            while (true) {
                int e = t[slot];
                if (e == 0) {
                    t[slot] = i + 1;
                    break;
                }
                if (ns[e - 1] == ns[i]) return null;
                slot = (slot + 1) & mask;
            }
        }
        return t;
    }

    /** The entry of {@code node} in a record's identity table, or -1. */
    static int findIn(int[] t, Node[] ns, Object node) {
        int mask = t.length - 1;
        int slot = spread(System.identityHashCode(node)) & mask;
        while (true) {
            int e = t[slot];
            if (e == 0) return -1;
            if (ns[e - 1] == node) return e - 1;
            slot = (slot + 1) & mask;
        }
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
        freezeSegments();
    }

    private void freezeSegments() {
        int n = segmentCount;
        if (n == 0) return;
        if (segments.length != n) {
            segments = Arrays.copyOf(segments, n);
            segmentScopes = Arrays.copyOf(segmentScopes, n);
            segmentSymbols = Arrays.copyOf(segmentSymbols, n);
        }
        // bodies come in source order almost always: an insertion sort by first line
        for (int i = 1; i < n; i++) {
            Collector.Recorded r = segments[i];
            Scope[] sc = segmentScopes[i];
            Symbol[] sy = segmentSymbols[i];
            int j = i - 1;
            while (j >= 0 && segments[j].minLine > r.minLine) {
                segments[j + 1] = segments[j];
                segmentScopes[j + 1] = segmentScopes[j];
                segmentSymbols[j + 1] = segmentSymbols[j];
                j--;
            }
            segments[j + 1] = r;
            segmentScopes[j + 1] = sc;
            segmentSymbols[j + 1] = sy;
        }
        int[] reach = new int[n];
        int max = Integer.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            max = Math.max(max, segments[i].maxLine);
            reach[i] = max;
        }
        segmentReach = reach;
    }

    /** The value recorded for {@code node} in a replayed body, or null. */
    private Object segmentValue(Object node) {
        if (segmentCount == 0 || !(node instanceof Node)) return null;
        dev.graphmend.ir.ast.Span sp = ((Node) node).span();
        if (sp == null) return null;
        int line = sp.line();
        Collector.Recorded[] segs = segments;
        int lo = 0;
        int hi = segmentCount - 1;
        int k = -1; // the last segment whose first line is <= line
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (segs[mid].minLine <= line) {
                k = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        for (; k >= 0 && segmentReach[k] >= line; k--) {
            Collector.Recorded r = segs[k];
            if (r.maxLine < line) continue;
            int e = findIn(r.table, r.nodes, node);
            if (e >= 0) {
                int c = r.codes[e];
                return c >= 0 ? segmentScopes[k][c] : segmentSymbols[k][~c];
            }
        }
        return null;
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
        return i >= 0 ? scopeIn(values[i]) : scopeIn(segmentValue(node));
    }

    /** The symbol recorded for {@code node}, or null. */
    Symbol symbolOf(Object node) {
        int i = find(node);
        return i >= 0 ? symbolIn(values[i]) : symbolIn(segmentValue(node));
    }
}
