package dev.graphmend.lsp;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/**
 * One open document: its latest snapshot, its pending analysis and who waits for its result.
 * Every field but {@code memo} and {@code json} is guarded by the object's monitor ({@link AnalysisScheduler}
 * has the rules); those belong to the analysis thread.
 */
final class OpenDocument {
    final String uri;
    Snapshot snap;
    /** Bumped by each change; an analysis started for an older generation drops its result. */
    long generation;
    Future<?> task;
    CompletableFuture<Analysis> next = new CompletableFuture<>();
    /** What the previous version's analysis found per function; used by the analysis thread only. */
    final dev.graphmend.passes.AnalysisMemo memo = new dev.graphmend.passes.AnalysisMemo();
    /** The JSON of the previous version's diagnostics' fixed members; used by the analysis thread only. */
    final DiagnosticMapper.JsonCache json = new DiagnosticMapper.JsonCache();
    Analysis last;
    long lastGeneration = -1;
    boolean closed;

    OpenDocument(String uri, Snapshot snap) {
        this.uri = uri;
        this.snap = snap;
    }

    synchronized Snapshot snapshot() {
        return snap;
    }
}
