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
record Analysis(Snapshot snapshot, AnalysisConfig config, List<Diagnostic> engine,
                List<org.eclipse.lsp4j.Diagnostic> lsp, String resultId, Findings findings) {}
