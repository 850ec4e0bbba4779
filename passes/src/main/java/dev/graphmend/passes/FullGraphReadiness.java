package dev.graphmend.passes;

import dev.graphmend.passes.model.Diagnostic;
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
 * succeed after {@code graphmend fix} (with or without unsafe fixes). A diagnostic counts for the
 * root it names (the first root that reaches it).
 *
 * <p>The verdict follows what torch does under {@code fullgraph=True}, observed on torch 2.10 and
 * 2.15 (docs/cli.md, "Full-graph readiness"): it captures scalar reads ({@code .item()},
 * {@code int()}/{@code float()} of a tensor, {@code .tolist()} of an integer tensor) and ops with
 * data-dependent output shapes ({@code nonzero}, one-argument {@code where}, boolean masks) that
 * break a default {@code torch.compile}, so those GM201/GM202 breaks do not make the verdict "no"
 * there; they are counted apart as {@code captured}. A captured value that later decides a Python
 * branch still fails; that branch is a diagnostic of its own. Before torch 2.10 nothing is counted
 * as captured.
 */
public final class FullGraphReadiness {
    private FullGraphReadiness() {}

    /** One root's counts; {@code noFix} excludes the {@code captured} ones. */
    public record Root(Diagnostic.Root root, int breaks, int safe, int unsafeOnly, int captured, int noFix) {
        /** "yes" (after `graphmend fix`), "with unsafe fixes", or "no". */
        public String verdict() {
            if (noFix > 0) return "no";
            return unsafeOnly > 0 ? "with unsafe fixes" : "yes";
        }

        /** The counts and the verdict in one sentence, as the CLI's --summary and the root's hover say them. */
        public String sentence() {
            return breaks + " break" + (breaks == 1 ? "" : "s") + ", " + safe + " with a safe fix, " + unsafeOnly
                    + " with an unsafe fix only, " + noFix + " without a fix"
                    + (captured > 0 ? ", " + captured + " captured under fullgraph=True" : "")
                    + "; fullgraph=True after fix: " + verdict()
                    + (captured > 0 && noFix == 0 ? " (if no captured value decides a Python branch)" : "");
        }
    }

    /** The roots of these diagnostics, by path and line. Diagnostics without a root (GM000) are left out. */
    public static List<Root> of(Collection<Diagnostic> diagnostics, AnalysisConfig config) {
        boolean captures = !config.torchBefore(2, 10);
        Map<String, int[]> counts = new LinkedHashMap<>();
        Map<String, Diagnostic.Root> roots = new LinkedHashMap<>();
        for (Diagnostic d : diagnostics) {
            if (d.root() == null) continue;
            String key = d.root().path() + ":" + d.root().line();
            roots.putIfAbsent(key, d.root());
            int[] c = counts.computeIfAbsent(key, k -> new int[5]);
            c[0]++;
            boolean safe = d.fixes().stream().anyMatch(f -> f.safety().isSafe());
            if (safe) c[1]++;
            else if (!d.fixes().isEmpty()) c[2]++;
            else if (captures && capturedUnderFullgraph(d)) c[3]++;
            else c[4]++;
        }
        List<Root> out = new ArrayList<>();
        for (var e : counts.entrySet()) {
            int[] c = e.getValue();
            out.add(new Root(roots.get(e.getKey()), c[0], c[1], c[2], c[3], c[4]));
        }
        out.sort(Comparator.comparing((Root r) -> r.root().path()).thenComparingInt(r -> r.root().line()));
        return out;
    }

    /**
     * A scalar read (GM201 without a fix or a declined one: {@code .item()}, {@code int()}, not a
     * tensor check, whose fix is the lowering, and not {@code .tolist()}, which fails for float
     * tensors) or a dynamic-shape op (GM202, GB0036).
     */
    private static boolean capturedUnderFullgraph(Diagnostic d) {
        if (d.code().equals("GM202")) return d.dynamoIds().contains("GB0036");
        return d.code().equals("GM201") && d.fixes().isEmpty() && d.noFixReason() == null
                && !d.dynamoIds().contains("GB0109");
    }
}
