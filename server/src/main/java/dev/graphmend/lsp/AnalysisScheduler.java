package dev.graphmend.lsp;

import dev.graphmend.passes.AnalysisHost;
import dev.graphmend.passes.Findings;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.model.Diagnostic;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Delayed;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * When open documents are analysed, and who gets the results (docs/lsp.md, "Diagnostics": push, pull and timing).
 *
 * <p>The concurrency rules of the server live here:
 * <ul>
 * <li>One analysis thread analyses one document version at a time; the engine's state for a
 *     document (its {@code AnalysisMemo}) and the project host are touched by that thread only.</li>
 * <li>A document's snapshot, generation, pending task and results are read and written under the
 *     document's monitor. A change bumps the generation and replaces the pending task (edits that
 *     arrive while an analysis runs are coalesced); an analysis whose generation is no longer the
 *     document's drops its result without publishing it.</li>
 * <li>Requests (pull diagnostics, code actions, hover, fix-all) wait on {@link #analysisOf}, the
 *     result of the latest version, and never run the engine on the message thread.</li>
 * <li>After an analysis, when none is due, the analysis thread may make the young collection the
 *     next edits would have met ({@link IdleCollection}).</li>
 * <li>The indexing thread yields to due analyses ({@link #waitWhileAnalysing}); shutting down
 *     cancels pending tasks without interrupting a running one (an interrupted thread that is
 *     writing to the client's channel would close it).</li>
 * </ul>
 */
final class AnalysisScheduler {
    /**
     * Tunables. {@code debounceMs}: how long after a change of a document its analysis starts.
     * {@code othersDelayMs}: how long after a change the other open documents, which may call into
     * the changed one, are analysed again; longer, so that typing does not re-analyse every open
     * file at every keystroke.
     */
    record Delays(long debounceMs, long othersDelayMs) {}

    private final Session session;
    private final Engine engine;
    private final Delays delays;
    /** Builds each version's project from the last one (the engine's front door for a long-lived caller). */
    private final AnalysisHost projects;
    private final ScheduledThreadPoolExecutor thread = new ScheduledThreadPoolExecutor(1, Threads.daemon("graphmend-analysis"));
    /** Moves young collections between keystrokes; touched by the analysis thread only. */
    private final IdleCollection idle = IdleCollection.forThisJvm();

    AnalysisScheduler(Session session, Engine engine, Delays delays, AnalysisHost projects) {
        this.session = session;
        this.engine = engine;
        this.delays = delays;
        this.projects = projects;
        thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        thread.setRemoveOnCancelPolicy(true);
    }

    /** Analyses {@code e}'s latest version after the debounce delay (at once when it is 0). */
    void changed(OpenDocument e) {
        schedule(e, delays.debounceMs());
    }

    /** Analyses {@code e}'s latest version after {@code delayMs}, replacing its pending analysis. */
    void schedule(OpenDocument e, long delayMs) {
        if (session.shutdown || e == null) return;
        synchronized (e) {
            if (e.closed) return;
            long gen = ++e.generation;
            Snapshot s = e.snap;
            if (e.task != null) e.task.cancel(false);
            if (e.next.isDone()) e.next = new CompletableFuture<>();
            try {
                e.task = thread.schedule(() -> analyse(e, s, gen), delayMs, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException ex) {
                // shutting down
            }
        }
    }

    /** Re-analyses the other open documents after a change of {@code uri}: they may call into it. */
    void scheduleOthers(String uri) {
        for (OpenDocument o : session.docs.all()) if (!o.uri.equals(uri)) schedule(o, delays.othersDelayMs());
    }

    /** Re-analyses every open document after {@code delayMs}. */
    void scheduleAll(long delayMs) {
        for (OpenDocument o : session.docs.all()) schedule(o, delayMs);
    }

    /** Re-analyses every open document after the debounce delay (a file of the workspace changed). */
    void workspaceChanged() {
        scheduleAll(delays.debounceMs());
    }

    /** A closed document: its pending analysis is cancelled, and who waits for it gets an error. */
    void close(OpenDocument e) {
        synchronized (e) {
            e.closed = true;
            if (e.task != null) e.task.cancel(false);
            if (!e.next.isDone()) {
                e.next.completeExceptionally(Requests.error(ResponseErrorCode.ContentModified, "the document was closed"));
            }
        }
    }

    /** How long after a document is closed its memory is released (after the other documents' analyses). */
    static final long RELEASE_DELAY_MS = 2000;
    /** Text of documents closed and not yet released (chars); the release task, pending. Guarded by this. */
    private long closedChars;
    private java.util.concurrent.ScheduledFuture<?> release;

    /**
     * A document was closed by the client ({@link #close} was called): after {@link #RELEASE_DELAY_MS}
     * the analysis thread lets go of what only it held and gives the memory back ({@link #release}).
     */
    synchronized void closed(OpenDocument e) {
        closedChars += e.snapshot().text().length();
        if (release != null) release.cancel(false);
        Analysis last;
        synchronized (e) {
            last = e.last;
        }
        dev.graphmend.passes.config.AnalysisConfig config = last == null ? null : last.config();
        try {
            release = thread.schedule(() -> release(config), RELEASE_DELAY_MS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException ex) {
            // shutting down
        }
    }

    /**
     * On the analysis thread, when documents were closed: the project host keeps the last project,
     * which holds the module (the tree) of the document analysed last; while documents are open
     * their next analysis replaces it, but when none is, the workspace's project is built again
     * without it (the index's facts stay inferred for the next file opened; with no workspace the
     * project is dropped). Then, when enough text was closed, a full collection
     * ({@link IdleCollection#afterClose}). Put off while an analysis is due.
     */
    private void release(dev.graphmend.passes.config.AnalysisConfig config) {
        if (session.shutdown) return;
        if (hasDueTask()) {
            synchronized (this) {
                release = thread.schedule(() -> release(config), RELEASE_DELAY_MS, TimeUnit.MILLISECONDS);
            }
            return;
        }
        long chars;
        synchronized (this) {
            chars = closedChars;
            closedChars = 0;
            release = null;
        }
        if (session.docs.all().isEmpty()) {
            List<SourceModule> workspace = session.docs.workspaceModules(session.index, null);
            if (workspace.isEmpty() || config == null) projects.forget();
            else projects.project(workspace, config);
        }
        long t0 = System.nanoTime();
        if (idle.afterClose(chars)) {
            session.log.info("documents closed: full collection in " + (System.nanoTime() - t0) / 1_000_000 + " ms, heap given back to "
                    + Runtime.getRuntime().totalMemory() / 1_000_000 + " MB");
        }
    }

    /**
     * Cancels every pending analysis and stops the thread (a running analysis finishes); a request
     * that waits for a cancelled analysis gets an error instead of waiting forever.
     */
    void shutdown() {
        for (OpenDocument e : session.docs.all()) {
            synchronized (e) {
                if (e.task != null) e.task.cancel(false);
                if (!e.next.isDone()) e.next.completeExceptionally(Requests.error(ResponseErrorCode.InvalidRequest, "the server is shutting down"));
            }
        }
        thread.shutdown();
    }

    /** The analysis of the document's latest version: at once when known, else when the pending one finishes. */
    CompletableFuture<Analysis> analysisOf(OpenDocument e) {
        synchronized (e) {
            if (e.last != null && e.lastGeneration == e.generation) return CompletableFuture.completedFuture(e.last);
            if (e.task == null || e.task.isDone()) schedule(e, 0);
            CompletableFuture<Analysis> f = e.next;
            // a waiter's cancellation must not cancel the shared future
            return f.thenApply(a -> a);
        }
    }

    /**
     * Builds the project of the whole workspace once and infers its facts (each class's attributes,
     * which classes are submodules, which hold which, who imports whom, every function): the first
     * analysis after indexing would otherwise do it for all of a package's classes while the user
     * waits for the file they opened. Later projects are built from this one ({@link AnalysisHost}).
     */
    void prepareProject(dev.graphmend.passes.config.AnalysisConfig config) {
        projects.project(session.docs.workspaceModules(session.index, null), config).inferProjectFacts();
    }

    /** Lets pending analyses of open documents run before the indexer takes the CPU again (at most 2 s). */
    void waitWhileAnalysing() {
        long until = System.nanoTime() + 2_000_000_000L;
        while (!session.shutdown && (thread.getActiveCount() > 0 || hasDueTask()) && System.nanoTime() < until) {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private boolean hasDueTask() {
        for (Runnable r : thread.getQueue()) {
            if (r instanceof Delayed d && d.getDelay(TimeUnit.MILLISECONDS) <= 0) return true;
        }
        return false;
    }

    private static boolean current(OpenDocument e, long gen) {
        synchronized (e) {
            return !e.closed && e.generation == gen;
        }
    }

    private void analyse(OpenDocument e, Snapshot s, long gen) {
        if (!current(e, gen)) return;
        long t0 = System.nanoTime(), bytes0 = Threads.allocatedBytes();
        try {
            Settings.Resolved cfg = session.settings.configFor(s.path);
            session.configMessages.report(cfg);
            List<SourceModule> modules = session.docs.workspaceModules(session.index, e);
            long tConfig = System.nanoTime();
            SourceModule mine = s.module();
            modules.add(mine);
            long tModule = System.nanoTime();
            Project project = projects.project(modules, cfg.config());
            long tProject = System.nanoTime();
            Findings found = engine.analyze(project, mine, e.memo);
            long tEngine = System.nanoTime();
            for (String err : found.internalErrors()) session.log.error(err + " (the rest was analysed; please report this)");
            if (!current(e, gen)) return; // a newer version is on its way: drop this result
            // a document the project's exclude keys (or default excludes) leave out gets no diagnostics, as in ruff's server
            List<Diagnostic> list = s.path != null && cfg.config().files().excludes(s.path) ? List.of()
                    : found.getOrDefault(mine, List.of());
            ClientCaps caps = session.caps;
            // (a clean file needs no line index: building one scans the whole text)
            List<org.eclipse.lsp4j.Diagnostic> lsp = list.isEmpty() ? List.of()
                    : DiagnosticMapper.toLsp(list, s.positions(caps.encoding()), e.json);
            Analysis a = new Analysis(s, cfg.config(), list, lsp, found);
            CompletableFuture<Analysis> waiting;
            synchronized (e) {
                if (e.closed || e.generation != gen) return;
                e.last = a;
                e.lastGeneration = gen;
                waiting = e.next;
            }
            long tMapped = System.nanoTime();
            LanguageClient c = session.client;
            if (c != null && !caps.pullDiagnostics()) c.publishDiagnostics(new PublishDiagnosticsParams(s.uri, lsp, s.version));
            waiting.complete(a);
            // the trace goes out after the diagnostics, which the user waits for
            long ms = (tMapped - t0) / 1_000_000;
            session.log.trace("analysed " + s.uri + " v" + s.version + ": " + list.size() + " diagnostics in " + ms + " ms",
                    modules.size() + " modules in the project (" + project.keptClasses() + " of " + project.classCount()
                            + " classes kept, " + project.carriedClasses() + " carried with their facts); functions: " + e.memo.reused() + " reused, "
                            + e.memo.analysed() + " analysed (" + e.memo.lastMode() + "), calls of " + e.memo.followsReused()
                            + " followed from the memo" + (e.memo.regionsReplayed() ? " (the previous discovery, moved)" : "")
                            + "; ms: change " + millis(0, s.changeNanos) + ", queued " + millis(s.createdNanos, t0) + ", configuration "
                            + millis(t0, tConfig) + ", symbols and names " + millis(tConfig, tModule) + ", project "
                            + millis(tModule, tProject) + ", engine " + millis(tProject, tEngine) + ", mapping "
                            + millis(tEngine, tMapped) + ", publishing " + millis(tMapped, System.nanoTime())
                            + "; MB allocated: change " + megabytes(s.changeBytes) + ", analysis "
                            + megabytes(Threads.allocatedBytes() - bytes0)
                            + (idle.active() ? "; young collections made between edits: " + idle.caused() : ""));
            // after the diagnostics and the trace: the user waits for neither
            idle.afterAnalysis(this::hasDueTask);
        } catch (Throwable t) {
            session.log.error("analysis of " + s.uri + " failed: " + t);
            CompletableFuture<Analysis> waiting;
            synchronized (e) {
                if (e.generation != gen) return;
                waiting = e.next;
            }
            waiting.completeExceptionally(Requests.error(ResponseErrorCode.InternalError, "analysis failed: " + t));
        }
    }

    private static String megabytes(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f", bytes / 1e6);
    }

    /** Milliseconds with two decimals ("1.05"), without String.format's cost at every keystroke. */
    static String millis(long from, long to) {
        long hundredths = Math.round((to - from) / 1e4);
        long abs = Math.abs(hundredths);
        long frac = abs % 100;
        return (hundredths < 0 ? "-" : "") + abs / 100 + (frac < 10 ? ".0" : ".") + frac;
    }
}
