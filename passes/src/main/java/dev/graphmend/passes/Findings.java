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
    private final FixBuilder fixBuilder;
    private final Attribution attribution;

    /** Builds the edits of one diagnostic's fixes in the analysis that found it. */
    interface FixBuilder {
        List<Diagnostic.Fix> fixesFor(SourceModule module, Diagnostic diagnostic);
    }

    /**
     * Which compile roots the analysis found, and which of them reach each diagnostic, in which
     * modes ({@link dev.graphmend.passes.analysis.Modes}): every root whose traced code holds it,
     * not only the one the diagnostic names.
     */
    public interface Attribution {
        /** Every root, in the order found, with the modes it is compiled in. */
        List<CompiledRoot> roots();

        /** The roots that reach {@code diagnostic} of {@code module}, each with the modes in which they do. */
        Map<Diagnostic.Root, Integer> rootsOf(SourceModule module, Diagnostic diagnostic);

        /**
         * The root to name as the one a diagnostic was compiled from ("compiled via …"): the
         * diagnostic's own when it reaches the diagnostic in some mode, else the first root that
         * does (the diagnostic's own reaches its function, but maybe not in the modes the line
         * runs in), else the diagnostic's own.
         */
        default Diagnostic.Root namedRoot(SourceModule module, Diagnostic diagnostic) {
            return diagnostic.root();
        }
    }

    /**
     * A compile root, the contexts it is compiled in ({@code Modes}: its mode and dtype, or every
     * one when not known), and the parameters every call of it in its module leaves None (sorted;
     * empty when its calls are not all seen: docs/compile-regions.md, "Calls of the compiled object").
     */
    public record CompiledRoot(Diagnostic.Root root, int modes, List<String> noneAtItsCalls) {
        public CompiledRoot(Diagnostic.Root root, int modes) {
            this(root, modes, List.of());
        }
    }

    Findings(Map<SourceModule, List<Diagnostic>> byModule, List<String> internalErrors, FixBuilder fixBuilder,
             Attribution attribution) {
        this.byModule = byModule;
        this.internalErrors = List.copyOf(internalErrors);
        this.fixBuilder = fixBuilder;
        this.attribution = attribution;
    }

    /**
     * A result built elsewhere (a front end's stand-in engine in tests): its fixes are the
     * diagnostics' own, and each diagnostic reaches the root it names, in either mode.
     */
    public static Findings of(Map<SourceModule, List<Diagnostic>> byModule, List<String> internalErrors) {
        Attribution named = new Attribution() {
            @Override public List<CompiledRoot> roots() {
                java.util.LinkedHashSet<Diagnostic.Root> roots = new java.util.LinkedHashSet<>();
                for (List<Diagnostic> l : byModule.values()) for (Diagnostic d : l) if (d.root() != null) roots.add(d.root());
                return roots.stream().map(r -> new CompiledRoot(r, dev.graphmend.passes.analysis.Modes.BOTH)).toList();
            }

            @Override public Map<Diagnostic.Root, Integer> rootsOf(SourceModule module, Diagnostic d) {
                return d.root() == null ? Map.of() : Map.of(d.root(), dev.graphmend.passes.analysis.Modes.BOTH);
            }
        };
        return new Findings(byModule, internalErrors, (m, d) -> d.fixes(), named);
    }

    /** Which roots reach which diagnostics. Holding it keeps the project alive. */
    public Attribution attribution() {
        return attribution;
    }

    /**
     * The legal fixes of {@code diagnostic}, one of {@code module}'s here, with their edits built and
     * checked to re-parse (the analysis only described them); in the order the diagnostic lists them,
     * without any whose rewrite does not parse. Holding a result keeps its project alive.
     */
    public List<Diagnostic.Fix> fixesFor(SourceModule module, Diagnostic diagnostic) {
        if (!diagnostic.fixes().stream().allMatch(Diagnostic.Fix::hasEdits)) return fixBuilder.fixesFor(module, diagnostic);
        return diagnostic.fixes().stream().filter(f -> Analyzer.reparses(module, f)).toList();
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
