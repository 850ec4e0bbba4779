package dev.graphmend.lsp;

import dev.graphmend.passes.Findings;
import dev.graphmend.passes.FullGraphReadiness;
import dev.graphmend.passes.model.Diagnostic;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.MarkupContent;
import org.eclipse.lsp4j.MarkupKind;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;

/**
 * textDocument/hover (docs/lsp.md, "Hover"): on a flagged range, the rule, message, Dynamo ids,
 * compile root and fixes; on a compile root's line, its full-graph readiness. Reads one analysed
 * version; holds no state.
 */
final class Hovers {
    private Hovers() {}

    static Hover of(Analysis a, Position p, ClientCaps caps) {
        Positions pos = a.snapshot().positions(caps.encoding());
        if (!pos.inRange(p)) return null;
        StringBuilder md = new StringBuilder();
        Range range = null;
        boolean markdown = caps.markdownHover();
        for (int i = 0; i < a.engine().size(); i++) {
            Range r = a.lsp().get(i).getRange();
            if (!Positions.contains(r, p)) continue;
            Diagnostic d = a.engine().get(i);
            if (range == null) range = r;
            if (md.length() > 0) md.append(markdown ? "\n\n---\n\n" : "\n\n");
            md.append(markdown ? "**" + d.code() + "** `" + d.rule().name() + "`" : d.code() + " " + d.rule().name());
            md.append("\n\n").append(d.message());
            if (!d.dynamoIds().isEmpty()) {
                md.append("\n\nDynamo graph-break id").append(d.dynamoIds().size() > 1 ? "s: " : ": ");
                List<String> ids = new ArrayList<>();
                for (String id : d.dynamoIds()) ids.add(markdown ? "`" + id + "`" : id);
                md.append(String.join(", ", ids));
            }
            if (d.rule().followsTorchVersion() && a.config() != null) {
                // what this rule reports, or the fixes it offers, differ between torch releases: say which one was assumed
                md.append("\n\n").append(a.config().torch().brief());
            }
            if (d.root() != null) {
                md.append("\n\nCompiled because of ").append(d.root().description()).append(" (")
                        .append(Path.of(d.root().path()).getFileName()).append(":").append(d.root().line()).append(")");
            }
            if (!d.fixes().isEmpty()) {
                md.append("\n\nFixes:");
                for (Diagnostic.Fix f : d.fixes()) {
                    md.append("\n- ").append(f.title()).append(" (").append(f.safety()).append(")");
                    if (f.note() != null) md.append(": ").append(f.note());
                }
            } else if (d.noFixReason() != null) {
                md.append("\n\nNo fix offered: ").append(d.noFixReason());
            } else if (!d.code().equals("GM000")) {
                md.append("\n\nNo source rewrite removes this break; see the rule page for what to do instead.");
            }
            {
                md.append(markdown ? "\n\n[" + d.code() + " documentation](" + d.rule().docsUrl() + ")"
                        : "\n\n" + d.rule().docsUrl());
            }
        }
        Range rootRange = rootReadiness(a, p, caps, markdown, md);
        if (range == null) range = rootRange;
        if (range == null) return null;
        return new Hover(new MarkupContent(markdown ? MarkupKind.MARKDOWN : MarkupKind.PLAINTEXT, md.toString()), range);
    }

    /**
     * On a compile root's line (a decorated function's, a module's {@code forward} line, or a
     * {@code torch.compile(...)} call): its full-graph readiness, counted over this document's
     * diagnostics that the root reaches (each counts for every root that reaches it); the range of
     * the line, or null when no root of this document starts there.
     */
    private static Range rootReadiness(Analysis a, Position p, ClientCaps caps, boolean markdown, StringBuilder md) {
        Path here = a.snapshot().path == null ? null : a.snapshot().path.toAbsolutePath().normalize();
        if (here == null || a.findings() == null) return null;
        Findings.Attribution attribution = a.findings().attribution();
        java.util.function.Predicate<Diagnostic.Root> onLine = r -> r.line() == p.getLine() + 1
                && Path.of(r.path()).toAbsolutePath().normalize().equals(here);
        if (attribution.roots().stream().noneMatch(r -> onLine.test(r.root()))) return null;
        boolean any = false;
        for (FullGraphReadiness.Root r : FullGraphReadiness.of(a.findings(), attribution, a.config(), true)) {
            if (!onLine.test(r.root())) continue;
            any = true;
            if (md.length() > 0) md.append(markdown ? "\n\n---\n\n" : "\n\n");
            md.append(markdown ? "**Compile root** " : "Compile root: ").append(r.root().description())
                    .append("\n\nIn this file: ").append(r.sentence()).append('.');
        }
        if (!any) return null;
        Positions pos = a.snapshot().positions(caps.encoding());
        String text = a.snapshot().ir.lines().lineText(p.getLine() + 1);
        return new Range(new Position(p.getLine(), 0),
                pos.position(p.getLine() + 1, text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length));
    }
}
