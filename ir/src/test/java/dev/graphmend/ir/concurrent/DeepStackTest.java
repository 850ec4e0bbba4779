package dev.graphmend.ir.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DeepStackTest {
    /** Recursion a 1 MB default stack cannot hold (about 50 bytes a frame at the least). */
    private static int depth(int n) {
        return n == 0 ? 0 : 1 + depth(n - 1);
    }

    @Test
    void theWorkGetsTheLargeStack() {
        assertEquals(1_000_000, DeepStack.call("deep", () -> depth(1_000_000)));
        AtomicLong sum = new AtomicLong();
        DeepStack.call("deep", () -> {
            DeepStack.forEach(4, i -> sum.addAndGet(depth(500_000)));
            return null;
        });
        assertEquals(2_000_000, sum.get());
    }

    @Test
    void everyIndexRunsOnceAlsoFromInsideABody() {
        AtomicIntegerArray seen = new AtomicIntegerArray(1000);
        DeepStack.forEach(10, outer -> DeepStack.forEach(100, inner -> seen.incrementAndGet(outer * 100 + inner)));
        for (int i = 0; i < seen.length(); i++) assertEquals(1, seen.get(i), "index " + i);
    }

    @Test
    void whatABodyThrowsIsThrownToTheCaller() {
        IllegalArgumentException boom = new IllegalArgumentException("boom");
        assertSame(boom, assertThrows(IllegalArgumentException.class,
                () -> DeepStack.forEach(50, i -> { if (i == 17) throw boom; })));
        assertSame(boom, assertThrows(IllegalArgumentException.class, () -> DeepStack.call("t", () -> { throw boom; })));
    }
}
