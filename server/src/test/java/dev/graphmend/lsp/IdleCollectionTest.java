package dev.graphmend.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link IdleCollection}: when it makes the young collection between edits, and that it does on a real serial collector. */
class IdleCollectionTest {
    private static final long MB = 1 << 20;

    /** An eden the test moves by hand; filling it runs a collection once a chunk no longer fits. */
    private static final class FakeEden implements IdleCollection.Eden {
        long used;
        long capacity = 300 * MB;
        long collections;

        @Override public long used() { return used; }
        @Override public long capacity() { return capacity; }

        @Override public long collections() { return collections; }

        /** An edit that allocates {@code mb}: the collector runs inside it when eden is full. */
        void edit(long mb) {
            used += mb * MB;
            if (used > capacity) {
                collections++;
                used = mb * MB / 2;
            }
        }
    }

    /**
     * A fake eden that, once armed, is full at the third read of the collection count: the one
     * {@code afterAnalysis} makes first, the filling loop's before its first chunk, and the one after it.
     */
    private static final class FillingEden implements IdleCollection.Eden {
        final FakeEden eden;
        private boolean armed;
        private int reads;

        FillingEden(FakeEden eden) { this.eden = eden; }

        void arm(boolean full) {
            armed = full;
            reads = 0;
        }

        @Override public long used() { return eden.used; }
        @Override public long capacity() { return eden.capacity; }

        @Override public long collections() {
            if (armed && ++reads == 3) {
                eden.collections++;
                eden.used = 0;
                armed = false;
            }
            return eden.collections;
        }
    }

    @Test
    void collectsOnlyWhenTheNextEditsWouldNotFit() {
        FakeEden eden = new FakeEden();
        FillingEden filling = new FillingEden(eden);
        IdleCollection idle = new IdleCollection(filling);
        // 10 MB an edit: nothing until less than twice that is left
        int collectedAt = -1;
        for (int i = 0; i < 40 && collectedAt < 0; i++) {
            eden.edit(10);
            long before = eden.collections;
            filling.arm(eden.capacity - eden.used < 20 * MB);
            if (idle.afterAnalysis(() -> false)) {
                collectedAt = i;
                assertEquals(before + 1, eden.collections, "the collection ran while it filled");
            }
        }
        assertEquals(28, collectedAt, "collected when 20 MB were left, after 28 edits of 10 MB in 300 MB");
        assertEquals(1, idle.caused());
        assertEquals(0, eden.collections - 1, "no collection inside an edit");
    }

    @Test
    void leavesEdenAloneWhileAnotherAnalysisIsDue() {
        FakeEden eden = new FakeEden();
        IdleCollection idle = new IdleCollection(eden);
        for (int i = 0; i < 29; i++) {
            eden.edit(10);
            assertFalse(idle.afterAnalysis(() -> true), "edit " + i + ": a change is waiting");
        }
        assertEquals(0, idle.caused());
    }

    @Test
    void afterABurstOfAllocationItWaitsForEditSizedGrowth() {
        FakeEden eden = new FakeEden();
        FillingEden filling = new FillingEden(eden);
        IdleCollection idle = new IdleCollection(filling);
        eden.edit(10);
        idle.afterAnalysis(() -> false);
        eden.edit(200); // files opened between two analyses: more than a quarter of eden
        filling.arm(true);
        assertFalse(idle.afterAnalysis(() -> false), "90 MB left, but the burst is no edit");
        int edits = 0;
        boolean collected = false;
        while (!collected && edits < 200) {
            eden.edit(1);
            edits++;
            filling.arm(true);
            collected = idle.afterAnalysis(() -> false);
        }
        // the burst leaves the last eight growths after eight edits; then 2 MB are needed, and the
        // 89th edit of 1 MB leaves 1 MB of the 300
        assertEquals(89, edits, "collected when less than two 1 MB edits fit");
        assertEquals(1, idle.caused());
    }

    @Test
    void withoutAKnownEdenItDoesNothing() {
        IdleCollection idle = new IdleCollection(null);
        assertFalse(idle.active());
        assertFalse(idle.afterAnalysis(() -> false));
    }

    /** Allocates like edits, then asks: run in a JVM with the serial collector, the editors' default. */
    public static final class SerialMain {
        static volatile Object held;

        public static void main(String[] args) {
            IdleCollection idle = IdleCollection.forThisJvm();
            if (!idle.active()) {
                System.out.println("inactive");
                return;
            }
            java.lang.management.GarbageCollectorMXBean young = java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()
                    .stream().filter(c -> c.getName().equals("Copy")).findFirst().orElseThrow();
            int inEdits = 0;
            for (int edit = 0; edit < 200; edit++) {
                long before = young.getCollectionCount();
                for (int i = 0; i < 8; i++) held = new byte[IdleCollection.CHUNK]; // 2 MB an edit
                if (young.getCollectionCount() != before) inEdits++;
                idle.afterAnalysis(() -> false);
            }
            System.out.println("caused " + idle.caused() + " inEdits " + inEdits);
        }
    }

    @Test
    void onTheSerialCollectorTheCollectionsMoveBetweenEdits() throws IOException, InterruptedException {
        Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(List.of(javaBin.toString(), "-XX:+UseSerialGC", "-Xmn64m", "-Xmx256m", "-cp",
                System.getProperty("java.class.path"), SerialMain.class.getName())).redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the child JVM did not finish");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(0, p.exitValue(), out);
        // 400 MB allocated through a ~51 MB eden: about 8 collections, each made between two edits
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("caused (\\d+) inEdits (\\d+)").matcher(out);
        assertTrue(m.find(), out);
        int caused = Integer.parseInt(m.group(1)), inEdits = Integer.parseInt(m.group(2));
        assertTrue(caused >= 5, out);
        assertTrue(inEdits <= 1, "collections inside edits: " + out); // the first, before any growth is known
    }
}
