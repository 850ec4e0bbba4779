package dev.graphmend.lsp;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.util.function.BooleanSupplier;

/**
 * Young collections between keystrokes instead of inside them (docs/lsp.md, "Latency").
 *
 * <p>A young collection stops the analysis for as long as it copies what still lives (12–30 ms
 * with the serial collector on a 5,000-line file, whose version holds ~10 MB of tables); one came
 * every ~25 edits, in the middle of one, and that edit went over its budget. After an analysis,
 * when no other is due, this looks at how much room the young generation's eden has left: when it
 * is less than the next two edits are likely to take (twice the most eden grew between two recent
 * analyses, when that is at most a quarter of eden: edits, not files opened), it fills eden with arrays nothing holds, so that the collection happens now, while
 * the user is between keystrokes; it then finds less to copy than one in the middle of an
 * analysis. Used only with the collectors whose eden has a fixed capacity between collections
 * (serial, the editors' default, and parallel), where the room left is known; with the others it
 * does nothing.
 */
final class IdleCollection {
    /** What this needs of the heap: eden's use and capacity, and how many young collections ran. */
    interface Eden {
        long used();
        long capacity();
        long collections();
    }

    /** How much eden grew between analyses, for the last few. */
    private final long[] growth = new long[8];
    private int recorded;
    private final Eden eden;
    private long lastUsed = -1;
    private long lastCollections = -1;
    private int caused;
    /** Where the filling arrays go, so that the compiler cannot leave them out. */
    private volatile Object sink;

    /** Allocated at a time: small enough to be eden's (a large array may go straight to the old generation). */
    static final int CHUNK = 256 * 1024;

    IdleCollection(Eden eden) {
        this.eden = eden;
    }

    /** For this JVM's collector: one that does nothing when its eden's room is not known. */
    static IdleCollection forThisJvm() {
        MemoryPoolMXBean pool = null;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getName().equals("Eden Space") || p.getName().equals("PS Eden Space")) pool = p;
        }
        GarbageCollectorMXBean young = null;
        for (GarbageCollectorMXBean c : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (c.getName().equals("Copy") || c.getName().equals("PS Scavenge")) young = c;
        }
        if (pool == null || young == null) return new IdleCollection(null);
        MemoryPoolMXBean p = pool;
        GarbageCollectorMXBean y = young;
        return new IdleCollection(new Eden() {
            @Override public long used() { return p.getUsage().getUsed(); }
            @Override public long capacity() { return p.getUsage().getCommitted(); }
            @Override public long collections() { return y.getCollectionCount(); }
        });
    }

    /** Editor text closed since the last full collection (chars): what {@link #afterClose} weighs. */
    private long closedChars;

    /**
     * Closed documents' text from which a full collection is worth its pause: a document's tree,
     * tables and memo take ~100 bytes per char of its text (five 50,000-line files, 2 MB of text
     * each, ~1 GB), so this is ~100 MB that only a full collection gives back to the OS.
     */
    static final long FULL_COLLECTION_CHARS = 1_000_000;

    /**
     * Called by the analysis thread when documents were closed and nothing is due: when the text
     * closed since the last time reaches {@link #FULL_COLLECTION_CHARS}, runs a full collection,
     * after which the collector shrinks the heap it no longer needs and returns the memory to the
     * OS (young collections never shrink it; without a full one the server kept the memory of
     * every large file it had opened). With any collector. Returns whether it collected.
     */
    boolean afterClose(long chars) {
        closedChars += chars;
        if (closedChars < FULL_COLLECTION_CHARS) return false;
        closedChars = 0;
        System.gc();
        lastUsed = -1; // the heap was resized: eden's growth is measured anew
        return true;
    }

    /** Whether this JVM's collector lets it work. */
    boolean active() {
        return eden != null;
    }

    /** How many young collections it caused so far. */
    int caused() {
        return caused;
    }

    /**
     * Called by the analysis thread after an analysis has been published; {@code due}: whether
     * another analysis is waiting (then nothing is done: the user is not between keystrokes).
     * Returns whether it caused a collection.
     */
    boolean afterAnalysis(BooleanSupplier due) {
        if (eden == null) return false;
        long used = eden.used();
        long collections = eden.collections();
        if (lastUsed >= 0 && collections == lastCollections && used > lastUsed) {
            growth[recorded++ % growth.length] = used - lastUsed;
        }
        lastUsed = used;
        lastCollections = collections;
        long capacity = eden.capacity();
        // after a burst (files opened, indexing while the user types) it waits for edit-sized growth:
        // collecting early then would only promote what the burst still holds
        long need = 2 * mostGrowth();
        if (need == 0 || need > capacity / 4 || capacity - used >= need || due.getAsBoolean()) return false;
        boolean collected = fill(collections, capacity);
        lastUsed = eden.used();
        lastCollections = eden.collections();
        if (collected) caused++;
        return collected;
    }

    private long mostGrowth() {
        long most = 0;
        for (int i = 0; i < Math.min(recorded, growth.length); i++) most = Math.max(most, growth[i]);
        return most;
    }

    /** Allocates until a young collection has run (at most eden's capacity and one chunk more). */
    private boolean fill(long collectionsBefore, long capacity) {
        long filled = 0;
        while (eden.collections() == collectionsBefore && filled <= capacity) {
            sink = new byte[CHUNK];
            filled += CHUNK;
        }
        sink = null;
        return eden.collections() != collectionsBefore;
    }
}
