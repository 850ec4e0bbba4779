package dev.graphmend.passes;

import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.analysis.Modes;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per compile root: how many diagnostics remain, how many a safe fix removes, how many only an
 * unsafe one, how many have no fix; and so whether {@code torch.compile(..., fullgraph=True)} can
 * succeed after {@code graphmend fix} (with or without unsafe fixes). A diagnostic counts for every
 * root that reaches it ({@link Findings.Attribution}), in each mode (eval, train) in which the root
 * reaches it; a root compiled in one known mode is judged in that mode, any other in both.
 *
 * <p>The verdict follows what torch does under {@code fullgraph=True}, observed on torch 2.10 and
 * 2.15 (docs/cli.md, "Full-graph readiness"): it captures explicit scalar reads ({@code .item()},
 * {@code int()}/{@code float()} of a tensor; not a tensor used as a size or a dim) and ops with
 * data-dependent output shapes ({@code nonzero}, one-argument {@code where}, boolean masks) that
 * break a default {@code torch.compile}, so those GM201/GM202 breaks do not make the verdict "no"
 * there; they are counted apart as {@code captured}. A captured value that later decides a Python
 * branch still fails; that branch is a diagnostic of its own. Before torch 2.10 nothing is counted
 * as captured.
 */
public final class FullGraphReadiness {
    private FullGraphReadiness() {}

    /** Counts of the diagnostics of a root (in one mode, or in any); {@code noFix} excludes the {@code captured} ones. */
    public record Counts(int breaks, int safe, int unsafeOnly, int captured, int noFix) {
        static final Counts NONE = new Counts(0, 0, 0, 0, 0);

        /** "yes" (after `graphmend fix`), "with unsafe fixes", or "no". */
        public String verdict() {
            if (noFix > 0) return "no";
            return unsafeOnly > 0 ? "with unsafe fixes" : "yes";
        }

        /** The counts and the verdict in one sentence. */
        public String sentence() {
            return sentence(false);
        }

        /**
         * The sentence; {@code checked} when GM301 found that no captured value decides a Python
         * branch (and so offers its fix at the root's compile call), which the proviso then names.
         */
        String sentence(boolean checked) {
            return breaks + " break" + (breaks == 1 ? "" : "s") + ", " + safe + " with a safe fix, " + unsafeOnly
                    + " with an unsafe fix only, " + noFix + " without a fix"
                    + (captured > 0 ? ", " + captured + " captured under fullgraph=True" : "")
                    + "; fullgraph=True after fix: " + verdict()
                    + (captured > 0 && noFix == 0 ? checked ? " (GM301: fullgraph=True at the compile call)"
                            : " (if no captured value decides a Python branch)" : "");
        }

        private Counts plus(SourceModule m, Diagnostic d, boolean captures) {
            boolean safeFix = d.fixes().stream().anyMatch(f -> f.safety().isSafe());
            boolean unsafe = !safeFix && !d.fixes().isEmpty();
            boolean captured = !safeFix && !unsafe && captures && dev.graphmend.passes.rules.CaptureAtRoot.capturedUnderFullgraph(m, d);
            return new Counts(breaks + 1, safe + (safeFix ? 1 : 0), unsafeOnly + (unsafe ? 1 : 0), this.captured + (captured ? 1 : 0),
                    noFix + (!safeFix && !unsafe && !captured ? 1 : 0));
        }
    }

    /**
     * One root: the modes it is compiled in, its counts over every diagnostic that reaches it in
     * any of them ({@code all}), and per mode ({@code eval}, {@code train}: null for a mode the
     * root is not compiled in).
     */
    public record Root(Diagnostic.Root root, int modes, Counts all, Counts eval, Counts train, List<String> noneAtItsCalls,
                       boolean capturable) {
        public int breaks() { return all.breaks(); }
        public int safe() { return all.safe(); }
        public int unsafeOnly() { return all.unsafeOnly(); }
        public int captured() { return all.captured(); }
        public int noFix() { return all.noFix(); }

        /** The verdict over every mode the root is compiled in: "yes", "with unsafe fixes", or "no". */
        public String verdict() { return all.verdict(); }

        /** Whether the two modes differ for a root compiled in either. */
        public boolean differsByMode() {
            return eval != null && train != null && !eval.equals(train);
        }

        /**
         * The counts and the verdict in one sentence, as the CLI's --summary and the root's hover say
         * them: per mode when the modes differ ("in eval mode: 0 breaks …; in train mode: 2 breaks …"),
         * and naming the mode when the root is compiled in one.
         */
        public String sentence() {
            // the contexts the verdict assumed: the dtype, and what the root's calls leave None
            String assumed = ((modes & Modes.FP32) == 0 ? ", half precision" : "")
                    + (noneAtItsCalls.isEmpty() ? "" : ", as called: " + String.join(", ", noneAtItsCalls.stream().map(p -> p + "=None").toList()));
            if (differsByMode()) {
                return "in eval mode" + assumed + ": " + eval.sentence(capturable) + "; in train mode" + assumed + ": "
                        + train.sentence(capturable);
            }
            if ((modes & Modes.TRAIN) == 0) return "(eval mode" + assumed + ") " + all.sentence(capturable);
            if ((modes & Modes.EVAL) == 0) return "(train mode" + assumed + ") " + all.sentence(capturable);
            return assumed.isEmpty() ? all.sentence(capturable) : "(" + assumed.substring(2) + ") " + all.sentence(capturable);
        }
    }

    /**
     * Every root of the attribution (with {@code allRoots}; else those with a diagnostic among
     * {@code found}), by path and line, each counted over the diagnostics of {@code found} that
     * reach it.
     */
    public static List<Root> of(Map<SourceModule, ? extends Collection<Diagnostic>> found, Findings.Attribution attribution,
                                AnalysisConfig config, boolean allRoots) {
        boolean captures = !config.torchBefore(2, 10);
        Map<Diagnostic.Root, Integer> modes = new LinkedHashMap<>();
        Map<Diagnostic.Root, List<String>> none = new java.util.HashMap<>();
        for (Findings.CompiledRoot r : attribution.roots()) {
            modes.merge(r.root(), r.modes(), (a, b) -> a | b);
            none.put(r.root(), r.noneAtItsCalls());
        }
        Map<Diagnostic.Root, Counts[]> counts = new LinkedHashMap<>(); // all, eval, train
        java.util.Set<Diagnostic.Root> capturable = new java.util.HashSet<>(); // the roots GM301 is reported for
        if (allRoots) for (Diagnostic.Root r : modes.keySet()) counts.put(r, new Counts[] {Counts.NONE, Counts.NONE, Counts.NONE});
        for (var e : found.entrySet()) {
            for (Diagnostic d : e.getValue()) {
                if (d.code().equals(dev.graphmend.passes.rules.CaptureAtRoot.INFO.code())) {
                    capturable.add(d.root()); // advice on a root, not a break
                    continue;
                }
                for (var reach : attribution.rootsOf(e.getKey(), d).entrySet()) {
                    Counts[] c = counts.computeIfAbsent(reach.getKey(), k -> new Counts[] {Counts.NONE, Counts.NONE, Counts.NONE});
                    int rootModes = modes.getOrDefault(reach.getKey(), Modes.BOTH);
                    modes.putIfAbsent(reach.getKey(), rootModes);
                    int in = reach.getValue() & rootModes;
                    if (in == 0) continue;
                    c[0] = c[0].plus(e.getKey(), d, captures);
                    if ((in & Modes.EVAL) != 0) c[1] = c[1].plus(e.getKey(), d, captures);
                    if ((in & Modes.TRAIN) != 0) c[2] = c[2].plus(e.getKey(), d, captures);
                }
            }
        }
        List<Root> out = new ArrayList<>();
        for (var e : counts.entrySet()) {
            int m = modes.get(e.getKey());
            Counts[] c = e.getValue();
            if (!allRoots && c[0].breaks() == 0) continue;
            out.add(new Root(e.getKey(), m, c[0], (m & Modes.EVAL) != 0 ? c[1] : null, (m & Modes.TRAIN) != 0 ? c[2] : null,
                    none.getOrDefault(e.getKey(), List.of()), capturable.contains(e.getKey())));
        }
        out.sort(Comparator.comparing((Root r) -> r.root().path()).thenComparingInt(r -> r.root().line()));
        return out;
    }
}
