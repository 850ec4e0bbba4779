package dev.graphmend.passes;

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
 * root it names (the first root that reaches it). Conservative: a break without a fix makes the
 * verdict "no", even where a torch release captures it under fullgraph=True.
 */
public final class FullGraphReadiness {
    private FullGraphReadiness() {}

    /** One root's counts. */
    public record Root(Diagnostic.Root root, int breaks, int safe, int unsafeOnly, int noFix) {
        /** "yes" (after `graphmend fix`), "with unsafe fixes", or "no". */
        public String verdict() {
            if (noFix > 0) return "no";
            return unsafeOnly > 0 ? "with unsafe fixes" : "yes";
        }
    }

    /** The roots of these diagnostics, by path and line. Diagnostics without a root (GM000) are left out. */
    public static List<Root> of(Collection<Diagnostic> diagnostics) {
        Map<String, int[]> counts = new LinkedHashMap<>();
        Map<String, Diagnostic.Root> roots = new LinkedHashMap<>();
        for (Diagnostic d : diagnostics) {
            if (d.root() == null) continue;
            String key = d.root().path() + ":" + d.root().line();
            roots.putIfAbsent(key, d.root());
            int[] c = counts.computeIfAbsent(key, k -> new int[4]);
            c[0]++;
            boolean safe = d.fixes().stream().anyMatch(f -> f.safety().equals("safe"));
            if (safe) c[1]++;
            else if (!d.fixes().isEmpty()) c[2]++;
            else c[3]++;
        }
        List<Root> out = new ArrayList<>();
        for (var e : counts.entrySet()) {
            int[] c = e.getValue();
            out.add(new Root(roots.get(e.getKey()), c[0], c[1], c[2], c[3]));
        }
        out.sort(Comparator.comparing((Root r) -> r.root().path()).thenComparingInt(r -> r.root().line()));
        return out;
    }
}
