package dev.graphmend.ir.concurrent;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * Threads with one fixed, large stack, for everything that parses or analyses a tree.
 *
 * <p>The parser, the tree builder and the passes recurse along the tree; the front end bounds that
 * depth by the text ({@code NestingLimits}: 100 blocks, 200 brackets, 9,994 levels of expressions).
 * What must not bound it is the stack of whatever thread happens to run the work: a plain
 * {@code java -jar} gives threads 1 MB (or what {@code -Xss} says), the common fork-join pool the same,
 * and a cold JVM's interpreted frames are several times larger than the JIT's. So every thread that
 * parses or analyses is made here, with {@value #STACK_MB} MB (address space reserved, touched only as
 * deep as the work goes), which holds the deepest text the limits admit even in the interpreter
 * ({@code DeepNestingTest} runs it under {@code -Xint}): the verdict is a function of the text.
 */
public final class DeepStack {
    private DeepStack() {}

    static final int STACK_MB = 512;
    /** The stack of every thread made here. */
    public static final long STACK_BYTES = (long) STACK_MB << 20;

    /** A thread with the large stack. */
    public static Thread thread(Runnable work, String name, boolean daemon) {
        Thread t = new Thread(null, work, name, STACK_BYTES);
        t.setDaemon(daemon);
        return t;
    }

    /** A factory of such threads, named {@code name-1}, {@code name-2}, ... */
    public static ThreadFactory factory(String name, boolean daemon) {
        AtomicInteger n = new AtomicInteger();
        return r -> thread(r, name + "-" + n.incrementAndGet(), daemon);
    }

    /**
     * Runs {@code work} on a new thread with the large stack and returns its result on this one; an
     * exception or error it throws is thrown here.
     */
    public static <T> T call(String name, Supplier<T> work) {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = thread(() -> {
            try {
                result.set(work.get());
            } catch (Throwable e) {
                failure.set(e);
            }
        }, name, false);
        t.start();
        uninterruptibly(t::join);
        rethrow(failure.get());
        return result.get();
    }

    private interface Wait {
        void await() throws InterruptedException;
    }

    /** Waits to the end however often interrupted (the work goes on), then keeps the interrupt. */
    private static void uninterruptibly(Wait wait) {
        boolean interrupted = false;
        while (true) {
            try {
                wait.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    /** Throws what the work threw, on the calling thread; nothing when it threw nothing. */
    private static void rethrow(Throwable e) {
        if (e instanceof RuntimeException r) throw r;
        if (e instanceof Error err) throw err;
        if (e != null) throw new IllegalStateException(e);
    }

    /** The workers of {@link #forEach}: daemons, one per core but the caller's, started on first use. */
    private static final class Workers {
        static final ExecutorService POOL = Executors.newFixedThreadPool(
                Math.max(1, Runtime.getRuntime().availableProcessors() - 1), factory("graphmend-worker", true));
    }

    /**
     * Runs {@code body} for 0 .. n-1, in parallel, on the calling thread and the workers; returns
     * when every index is done, throwing the first exception or error a body threw. The caller takes
     * indexes too, so a call from inside a body (or with every worker busy) still finishes. Call it
     * from a thread with the large stack: the caller runs bodies on its own stack.
     */
    public static void forEach(int n, IntConsumer body) {
        if (n <= 0) return;
        if (n == 1) {
            body.accept(0);
            return;
        }
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Runnable take = () -> {
            for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                try {
                    if (failure.get() == null) body.accept(i);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    if (done.incrementAndGet() == n) {
                        synchronized (done) {
                            done.notifyAll();
                        }
                    }
                }
            }
        };
        int helpers = Math.min(n - 1, Math.max(1, Runtime.getRuntime().availableProcessors() - 1));
        for (int h = 0; h < helpers; h++) Workers.POOL.execute(take);
        take.run();
        uninterruptibly(() -> {
            synchronized (done) {
                while (done.get() < n) done.wait();
            }
        });
        rethrow(failure.get());
    }
}
