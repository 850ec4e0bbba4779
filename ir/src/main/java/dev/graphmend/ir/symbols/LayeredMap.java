package dev.graphmend.ir.symbols;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * An immutable map made of a shared base and a few entries put over it: {@link #with} makes the
 * next version of a map in which one or two of thousands of entries changed without copying the
 * rest (a workspace's 2,913 modules by name were copied at every keystroke). The base is never
 * written after construction, so maps made from one another share it safely; once the entries
 * put over it grow past {@link #MAX_TOP}, the next version is flattened into a new base.
 * Iteration follows the base's insertion order, a replaced entry in its place, then added keys in
 * the order they were added. Null keys and values are not allowed.
 */
public final class LayeredMap<K, V> extends AbstractMap<K, V> {
    /** Entries over the base past which {@link #with} flattens the map. */
    static final int MAX_TOP = 64;

    private final Map<K, V> base;
    /** Replacements of base keys and added keys, in the order they were put. */
    private final Map<K, V> top;
    private final int size;

    private LayeredMap(Map<K, V> base, Map<K, V> top) {
        this.base = base;
        this.top = top;
        int added = 0;
        for (K k : top.keySet()) if (!base.containsKey(k)) added++;
        this.size = base.size() + added;
    }

    /** A map of these entries, in their iteration order (a copy). */
    public static <K, V> LayeredMap<K, V> of(Map<K, V> entries) {
        Map<K, V> copy = new LinkedHashMap<>(Math.max(16, entries.size() * 4 / 3 + 1));
        entries.forEach((k, v) -> copy.put(Objects.requireNonNull(k), Objects.requireNonNull(v)));
        return new LayeredMap<>(copy, Map.of());
    }

    /** This map with {@code changes} put over it; this map is unchanged. */
    public LayeredMap<K, V> with(Map<K, V> changes) {
        if (changes.isEmpty()) return this;
        Map<K, V> t = new LinkedHashMap<>(top);
        changes.forEach((k, v) -> t.put(Objects.requireNonNull(k), Objects.requireNonNull(v)));
        if (t.size() <= MAX_TOP) return new LayeredMap<>(base, t);
        Map<K, V> flat = new LinkedHashMap<>(Math.max(16, (size + changes.size()) * 4 / 3 + 1));
        flat.putAll(this);
        flat.putAll(changes);
        return new LayeredMap<>(flat, Map.of());
    }

    @Override
    public V get(Object key) {
        V v = top.get(key);
        return v != null ? v : base.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return top.containsKey(key) || base.containsKey(key);
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public void forEach(java.util.function.BiConsumer<? super K, ? super V> action) {
        base.forEach((k, v) -> {
            V over = top.get(k);
            action.accept(k, over == null ? v : over);
        });
        top.forEach((k, v) -> {
            if (!base.containsKey(k)) action.accept(k, v);
        });
    }

    /** The values in iteration order, without an entry made for each (the entry set makes one). */
    @Override
    public java.util.Collection<V> values() {
        return new java.util.AbstractCollection<>() {
            @Override
            public int size() {
                return size;
            }

            @Override
            public Iterator<V> iterator() {
                Iterator<Entry<K, V>> entries = entrySet().iterator();
                if (top.isEmpty()) return java.util.Collections.unmodifiableCollection(base.values()).iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return entries.hasNext();
                    }

                    @Override
                    public V next() {
                        return entries.next().getValue();
                    }
                };
            }
        };
    }

    @Override
    public Set<Entry<K, V>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return size;
            }

            @Override
            public Iterator<Entry<K, V>> iterator() {
                return new Iterator<>() {
                    private final Iterator<Entry<K, V>> inBase = base.entrySet().iterator();
                    private final Iterator<Entry<K, V>> inTop = top.entrySet().iterator();
                    private Entry<K, V> next = advance();

                    private Entry<K, V> advance() {
                        if (inBase.hasNext()) {
                            Entry<K, V> e = inBase.next();
                            V over = top.get(e.getKey());
                            return over == null ? e : new SimpleImmutableEntry<>(e.getKey(), over);
                        }
                        while (inTop.hasNext()) {
                            Entry<K, V> e = inTop.next();
                            if (!base.containsKey(e.getKey())) return e;
                        }
                        return null;
                    }

                    @Override
                    public boolean hasNext() {
                        return next != null;
                    }

                    @Override
                    public Entry<K, V> next() {
                        if (next == null) throw new NoSuchElementException();
                        Entry<K, V> e = next;
                        next = advance();
                        return new SimpleImmutableEntry<>(e);
                    }
                };
            }
        };
    }
}
