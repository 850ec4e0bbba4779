package dev.graphmend.lsp;

import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.model.Diagnostic;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
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
 * {@link WorkspaceIndex}, with work-done progress for clients that support it. Runs on the
 * server's indexing thread and yields to the analysis of open documents ({@code yieldToAnalysis}).
 */
final class WorkspaceIndexing {
    private final WorkspaceIndex index;
    private final Log log;
    private final Supplier<LanguageClient> client;
    private final Supplier<ClientCaps> caps;
    private final BooleanSupplier stopping;
    private final Runnable yieldToAnalysis;
    private final Predicate<Path> isOpen;
    private final java.util.function.Function<Path, dev.graphmend.passes.config.FileSelection> selectionFor;
    private final AtomicInteger progressTokens = new AtomicInteger();
    private boolean warm; // only the indexing thread reads and writes it

    WorkspaceIndexing(WorkspaceIndex index, Log log, Supplier<LanguageClient> client, Supplier<ClientCaps> caps,
                      BooleanSupplier stopping, Runnable yieldToAnalysis, Predicate<Path> isOpen,
                      java.util.function.Function<Path, dev.graphmend.passes.config.FileSelection> selectionFor) {
        this.index = index;
        this.log = log;
        this.client = client;
        this.caps = caps;
        this.stopping = stopping;
        this.yieldToAnalysis = yieldToAnalysis;
        this.isOpen = isOpen;
        this.selectionFor = selectionFor;
    }

    /**
     * Analyses a bundled model file (examples/modeling_tiny_decoder.py) a few times, with its
     * fixes, before indexing: on a cold JVM the first analysis of a model file costs ~30 times a
     * warm one, and that would be the first file the user opens. Yields to the analysis of open
     * documents; at most ~1.5 s, once per server.
     */
    void warmUp() {
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
        for (; runs < 12 && !stopping.getAsBoolean() && System.nanoTime() - t0 < 1_500_000_000L; runs++) {
            yieldToAnalysis.run();
            SourceModule m = dev.graphmend.passes.ProjectLoader.module(Path.of("warmup.py"), "warmup.py", text);
            List<Diagnostic> ds = Engine.DEFAULT.analyze(new Project(List.of(m), dev.graphmend.passes.config.AnalysisConfig.defaults()),
                    m, null).get(m);
            DiagnosticMapper.resultId("warmup", DiagnosticMapper.toLsp(ds, new Positions(m.ir().lines(), caps.get().encoding())));
        }
        log.info("warmed up with " + runs + " analyses in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
    }

    /**
     * Indexes the Python files under {@code roots}, reporting progress, then runs {@code prepare}
     * (the project's class facts) inside the same progress; returns false when there was nothing to index.
     */
    boolean run(List<Path> roots, Runnable prepare) {
        if (roots.isEmpty()) return false;
        List<Path> files = WorkspaceIndex.pythonFiles(roots, selectionFor);
        LanguageClient c = client.get();
        Either<String, Integer> token = null;
        if (c != null && caps.get().workDoneProgress()) {
            Either<String, Integer> t = Either.forLeft("graphmend-index-" + progressTokens.incrementAndGet());
            try {
                c.createProgress(new WorkDoneProgressCreateParams(t)).get(10, TimeUnit.SECONDS);
                token = t;
            } catch (Exception ex) {
                log.warn("window/workDoneProgress/create failed: " + ex);
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
        index.index(files, (done, total) -> {
            if (tok != null && (done % step == 0) && done < total) {
                WorkDoneProgressReport r = new WorkDoneProgressReport();
                r.setMessage(done + "/" + total + " files");
                r.setPercentage(done * 100 / Math.max(1, total));
                c.notifyProgress(new ProgressParams(tok, Either.forLeft(r)));
            }
        }, () -> stopping.getAsBoolean() || Thread.currentThread().isInterrupted(), yieldToAnalysis, isOpen);
        // open documents are read from their buffers, not indexed from disk: they count as found
        int open = 0, read = 0;
        for (Path f : files) {
            if (isOpen.test(f)) open++;
            else if (index.contains(f)) read++;
        }
        if (tok != null) {
            WorkDoneProgressReport r = new WorkDoneProgressReport();
            r.setMessage("inferring classes and imports");
            r.setPercentage(99);
            c.notifyProgress(new ProgressParams(tok, Either.forLeft(r)));
        }
        long tPrepare = System.currentTimeMillis();
        yieldToAnalysis.run();
        try {
            prepare.run();
        } catch (RuntimeException | StackOverflowError e) {
            log.error("inferring the workspace's classes failed (the first analysis will do it): " + e);
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
        log.info(found + detail + " in " + (System.currentTimeMillis() - t0) + " ms (classes and imports inferred in " + prepareMs + " ms)");
        return true;
    }
}
