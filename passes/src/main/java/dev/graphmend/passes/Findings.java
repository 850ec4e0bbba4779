package dev.graphmend.passes;

import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.model.Diagnostic;
import java.util.AbstractMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One analysis's result: each module's diagnostics (a read-only map, the modules outside the focus
 * with empty lists) and the internal errors met on the way (a function or a fix the engine could not
 * handle; the rest was analysed), which the caller reports: the CLI on stderr, the server in its log.
 */
public final class Findings extends AbstractMap<SourceModule, List<Diagnostic>> {
    private final Map<SourceModule, List<Diagnostic>> byModule;
    private final List<String> internalErrors;

    Findings(Map<SourceModule, List<Diagnostic>> byModule, List<String> internalErrors) {
        this.byModule = byModule;
        this.internalErrors = List.copyOf(internalErrors);
    }

    /** A result built elsewhere (a front end's stand-in engine in tests). */
    public static Findings of(Map<SourceModule, List<Diagnostic>> byModule, List<String> internalErrors) {
        return new Findings(byModule, internalErrors);
    }

    @Override
    public Set<Entry<SourceModule, List<Diagnostic>>> entrySet() {
        return java.util.Collections.unmodifiableMap(byModule).entrySet();
    }

    @Override
    public List<Diagnostic> get(Object module) {
        return byModule.get(module);
    }

    /** "path:line what: internal error …", in no particular order. */
    public List<String> internalErrors() {
        return internalErrors;
    }
}
