package dev.graphmend.lsp;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** The server's threads are daemons, so that a client that never sends {@code exit} does not keep the JVM up. */
final class Threads {
    private Threads() {}

    static ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
