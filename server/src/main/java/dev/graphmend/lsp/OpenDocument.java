package dev.graphmend.lsp;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/**
 * One open document: its latest snapshot, its pending analysis and who waits for its result.
 * Every field but {@code memo} is guarded by the object's monitor ({@link AnalysisScheduler}
 * has the rules); {@code memo} belongs to the analysis thread.
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
