package dev.graphmend.ir.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link LayeredMap} against a {@link LinkedHashMap} given the same puts: the same entries, in the
 * same order, through every view, version after version, across flattening; earlier versions
 * unchanged by later ones.
 */
class LayeredMapTest {
    @Test
    void behavesAsACopyWithThePutsApplied() {
        Random r = new Random(5);
        Map<String, Integer> start = new LinkedHashMap<>();
        for (int i = 0; i < 200; i++) start.put("k" + i, i);
        LayeredMap<String, Integer> map = LayeredMap.of(start);
        Map<String, Integer> expected = new LinkedHashMap<>(start);
        List<LayeredMap<String, Integer>> versions = new ArrayList<>();
        List<Map<String, Integer>> expectedVersions = new ArrayList<>();
        for (int step = 0; step < 400; step++) {
            Map<String, Integer> changes = new LinkedHashMap<>();
            for (int c = r.nextInt(3); c >= 0; c--) {
                // mostly replacements of existing keys, sometimes a new key
                String k = r.nextInt(10) == 0 ? "new" + r.nextInt(1000) : "k" + r.nextInt(200);
                changes.put(k, r.nextInt());
            }
            map = map.with(changes);
            expected.putAll(changes);
            versions.add(map);
            expectedVersions.add(new LinkedHashMap<>(expected));
            same(expected, map);
        }
        for (int i = 0; i < versions.size(); i++) same(expectedVersions.get(i), versions.get(i));
    }

    private static void same(Map<String, Integer> expected, LayeredMap<String, Integer> map) {
        assertEquals(expected.size(), map.size());
        assertEquals(List.copyOf(expected.entrySet()), List.copyOf(map.entrySet()));
        assertEquals(List.copyOf(expected.values()), List.copyOf(map.values()));
        List<String> keys = new ArrayList<>();
        List<Integer> values = new ArrayList<>();
        map.forEach((k, v) -> {
            keys.add(k);
            values.add(v);
        });
        assertEquals(List.copyOf(expected.keySet()), keys);
        assertEquals(List.copyOf(expected.values()), values);
        for (String k : expected.keySet()) assertEquals(expected.get(k), map.get(k));
        assertFalse(map.containsKey("absent"));
        assertEquals(expected, map);
        assertEquals(expected.hashCode(), map.hashCode());
    }

    @Test
    void isReadOnly() {
        LayeredMap<String, Integer> map = LayeredMap.of(Map.of("a", 1)).with(Map.of("b", 2));
        assertThrows(UnsupportedOperationException.class, () -> map.put("c", 3));
        assertThrows(UnsupportedOperationException.class, () -> map.entrySet().iterator().next().setValue(5));
        assertThrows(UnsupportedOperationException.class, () -> map.values().iterator().remove());
    }
}
