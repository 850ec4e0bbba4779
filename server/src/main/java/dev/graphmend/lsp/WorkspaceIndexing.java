package dev.graphmend.lsp;

import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.model.Diagnostic;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.lsp4j.ProgressParams;
import org.eclipse.lsp4j.WorkDoneProgressBegin;
import org.eclipse.lsp4j.WorkDoneProgressCreateParams;
import org.eclipse.lsp4j.WorkDoneProgressEnd;
import org.eclipse.lsp4j.WorkDoneProgressReport;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * Workspace indexing as the server runs it (docs/lsp.md, "Workspace"): a warm-up of the engine on
 * a bundled model file, then every Python file of the workspace folders read into the
 * {@link WorkspaceIndex}, with work-done progress for clients that support it, then the
 * workspace's facts inferred. Everything runs on one indexing thread, which yields to the analysis
 * of open documents; files changed on disk are re-read on it too.
 */
final class WorkspaceIndexing {
    private final Session session;
    private final AnalysisScheduler scheduler;
    private final boolean warmUp;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(Threads.daemon("graphmend-index"));
    private final AtomicInteger progressTokens = new AtomicInteger();
    private volatile CompletableFuture<Void> indexed = new CompletableFuture<>();
    private boolean warm; // only the indexing thread reads and writes it

    WorkspaceIndexing(Session session, AnalysisScheduler scheduler, boolean warmUp) {
        this.session = session;
        this.scheduler = scheduler;
        this.warmUp = warmUp;
    }

    /** Completes when the latest indexing of the folders has finished (for tests). */
    CompletableFuture<Void> indexed() { return indexed; }

    /** (Re-)indexes the workspace folders on the indexing thread, then re-analyses the open documents. */
    void start() {
        List<Path> roots = session.folders;
        CompletableFuture<Void> done = indexed.isDone() ? new CompletableFuture<>() : indexed;
        indexed = done;
        try {
            thread.execute(() -> {
                try {
                    if (warmUp) warmUp();
                    if (run(roots)) scheduler.scheduleAll(0);
                } finally {
                    done.complete(null);
                }
            });
        } catch (RejectedExecutionException ex) {
            done.complete(null);
        }
    }

    /** Runs {@code job} on the indexing thread, after what is queued there (file events, indexing). */
    void later(Runnable job) {
        try {
            thread.execute(job);
        } catch (RejectedExecutionException ex) {
            // shutting down
        }
    }

    void shutdown() {
        thread.shutdown();
    }

    /** The files the folder's pyproject.toml selects, as it decides what `check` walks. */
    private dev.graphmend.passes.config.FileSelection selectionFor(Path root) {
        var files = configOf(root).files();
        return files.root() == null ? files.withRoot(root) : files;
    }

    private dev.graphmend.passes.config.AnalysisConfig configOf(Path root) {
        return session.settings.configFor(root.resolve("__init__.py")).config();
    }

    /**
     * Analyses a bundled model file (examples/modeling_tiny_decoder.py) a few times, with its
     * fixes, before indexing: on a cold JVM the first analysis of a model file costs ~30 times a
     * warm one, and that would be the first file the user opens. Yields to the analysis of open
     * documents; at most ~1.5 s, once per server.
     */
    private void warmUp() {
        if (warm) return;
        warm = true;
        String text;
        try (var in = GraphmendServer.class.getResourceAsStream("warmup/modeling_tiny_decoder.py")) {
            if (in == null) return;
            text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return;
        }
        long t0 = System.nanoTime();
        int runs = 0;
        for (; runs < 12 && !session.shutdown && System.nanoTime() - t0 < 1_500_000_000L; runs++) {
            scheduler.waitWhileAnalysing();
            SourceModule m = dev.graphmend.passes.ProjectLoader.module(Path.of("warmup.py"), "warmup.py", text);
            List<Diagnostic> ds = Engine.DEFAULT.analyze(new Project(List.of(m), dev.graphmend.passes.config.AnalysisConfig.defaults()),
                    m, null).get(m);
            DiagnosticMapper.resultId("warmup", DiagnosticMapper.toLsp(ds, new Positions(m.ir().lines(), session.caps.encoding())));
        }
        session.log.info("warmed up with " + runs + " analyses in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
    }

    /**
     * Indexes the Python files under {@code roots}, reporting progress, then prepares the project
     * (its class facts) inside the same progress; returns false when there was nothing to index.
     */
    private boolean run(List<Path> roots) {
        if (roots.isEmpty()) return false;
        List<Path> files = WorkspaceIndex.pythonFiles(roots, this::selectionFor);
        LanguageClient c = session.client;
        Either<String, Integer> token = null;
        if (c != null && session.caps.workDoneProgress()) {
            Either<String, Integer> t = Either.forLeft("graphmend-index-" + progressTokens.incrementAndGet());
            try {
                c.createProgress(new WorkDoneProgressCreateParams(t)).get(10, TimeUnit.SECONDS);
                token = t;
            } catch (Exception ex) {
                session.log.warn("window/workDoneProgress/create failed: " + ex);
            }
        }
        long t0 = System.currentTimeMillis();
        if (token != null) {
            WorkDoneProgressBegin b = new WorkDoneProgressBegin();
            b.setTitle("GraphMend: indexing");
            b.setMessage(files.size() + " Python files");
            b.setPercentage(0);
            b.setCancellable(false);
            c.notifyProgress(new ProgressParams(token, Either.forLeft(b)));
        }
        Either<String, Integer> tok = token;
        int step = Math.max(1, files.size() / 20);
        session.index.index(files, (done, total) -> {
            if (tok != null && (done % step == 0) && done < total) {
                WorkDoneProgressReport r = new WorkDoneProgressReport();
                r.setMessage(done + "/" + total + " files");
                r.setPercentage(done * 100 / Math.max(1, total));
                c.notifyProgress(new ProgressParams(tok, Either.forLeft(r)));
            }
        }, () -> session.shutdown || Thread.currentThread().isInterrupted(), scheduler::waitWhileAnalysing, session.docs::isOpen);
        // open documents are read from their buffers, not indexed from disk: they count as found
        int open = 0, read = 0;
        for (Path f : files) {
            if (session.docs.isOpen(f)) open++;
            else if (session.index.contains(f)) read++;
        }
        if (tok != null) {
            WorkDoneProgressReport r = new WorkDoneProgressReport();
            r.setMessage("inferring classes and imports");
            r.setPercentage(99);
            c.notifyProgress(new ProgressParams(tok, Either.forLeft(r)));
        }
        long tPrepare = System.currentTimeMillis();
        scheduler.waitWhileAnalysing();
        try {
            scheduler.prepareProject(configOf(roots.get(0)));
        } catch (RuntimeException | StackOverflowError e) {
            session.log.error("inferring the workspace's classes failed (the first analysis will do it): " + e);
        }
        long prepareMs = System.currentTimeMillis() - tPrepare;
        String found = "indexed " + (read + open) + " Python files";
        String detail = open == 0 && read == files.size() ? "" : " (" + open + " open in the editor"
                + (read + open < files.size() ? ", " + (files.size() - read - open) + " not readable as UTF-8 Python" : "") + ")";
        if (token != null) {
            WorkDoneProgressEnd end = new WorkDoneProgressEnd();
            end.setMessage(found.substring("indexed ".length()));
            c.notifyProgress(new ProgressParams(token, Either.forLeft(end)));
        }
        session.log.info(found + detail + " in " + (System.currentTimeMillis() - t0) + " ms (classes and imports inferred in " + prepareMs + " ms)");
        return true;
    }
}
