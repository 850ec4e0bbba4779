package dev.graphmend.lsp;

import dev.graphmend.passes.Findings;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.config.AnalysisConfig;
import java.util.List;

/**
 * The engine's diagnostics for one version of a document, with their LSP form (in the session's
 * position encoding, same order), the result id of that form for pull diagnostics, and the
 * engine's result they came from, which builds a fix's edits when the client asks for them.
 */
final class Analysis {
    private final Snapshot snapshot;
    private final AnalysisConfig config;
    private final List<Diagnostic> engine;
    private final List<org.eclipse.lsp4j.Diagnostic> lsp;
    private final Findings findings;
    private volatile String resultId; // digested on first use: only pull diagnostics ask, and pushing clients never do

    Analysis(Snapshot snapshot, AnalysisConfig config, List<Diagnostic> engine, List<org.eclipse.lsp4j.Diagnostic> lsp,
             Findings findings) {
        this.snapshot = snapshot;
        this.config = config;
        this.engine = engine;
        this.lsp = lsp;
        this.findings = findings;
    }

    Snapshot snapshot() { return snapshot; }
    AnalysisConfig config() { return config; }
    List<Diagnostic> engine() { return engine; }
    List<org.eclipse.lsp4j.Diagnostic> lsp() { return lsp; }
    Findings findings() { return findings; }

    /** A stable id of the LSP form, for pull diagnostics' "unchanged" reports. */
    String resultId() {
        String id = resultId;
        if (id == null) resultId = id = DiagnosticMapper.resultId(snapshot.uri, lsp);
        return id;
    }
}
