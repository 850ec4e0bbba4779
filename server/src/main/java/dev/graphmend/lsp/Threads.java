package dev.graphmend.lsp;

import dev.graphmend.ir.concurrent.DeepStack;
import java.util.concurrent.ThreadFactory;

/** The server's threads are daemons, so that a client that never sends {@code exit} does not keep the JVM up. */
final class Threads {
    private Threads() {}

    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    /**
     * Bytes the current thread has allocated so far (HotSpot's per-thread counter), or 0 where the
     * JVM does not count them: the trace reports what a version allocated, since young collections
     * are the latency's tail (docs/lsp.md, Robustness: {@code $/setTrace}).
     */
    static long allocatedBytes() {
        if (THREADS instanceof com.sun.management.ThreadMXBean hs && hs.isThreadAllocatedMemorySupported()) {
            return hs.getCurrentThreadAllocatedBytes();
        }
        return 0;
    }

    /** Daemons with the front end's fixed stack (they parse and analyse: {@link DeepStack}). */
    static ThreadFactory daemon(String name) {
        return DeepStack.factory(name, true);
    }
}
