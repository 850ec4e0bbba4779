package dev.graphmend.lsp;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.model.Severity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.eclipse.lsp4j.DiagnosticCodeDescription;
import org.eclipse.lsp4j.DiagnosticRelatedInformation;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.Location;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;

/** Engine diagnostics → LSP diagnostics (docs/rules/README.md, docs/lsp.md). */
final class DiagnosticMapper {
    static final String SOURCE = "graphmend";

    private DiagnosticMapper() {}

    static List<org.eclipse.lsp4j.Diagnostic> toLsp(List<Diagnostic> found, Positions pos) {
        List<org.eclipse.lsp4j.Diagnostic> out = new ArrayList<>(found.size());
        java.util.Map<String, String> uris = new java.util.HashMap<>(); // the roots of a file are few
        for (Diagnostic d : found) out.add(toLsp(d, pos, uris));
        return out;
    }

    private static org.eclipse.lsp4j.Diagnostic toLsp(Diagnostic d, Positions pos, java.util.Map<String, String> uris) {
        org.eclipse.lsp4j.Diagnostic x = new org.eclipse.lsp4j.Diagnostic();
        x.setRange(pos.range(d.span()));
        x.setSeverity(severity(d.severity()));
        x.setCode(d.code());
        x.setSource(SOURCE);
        x.setMessage(d.message());
        x.setCodeDescription(new DiagnosticCodeDescription(d.rule().docsUrl()));
        if (d.root() != null) {
            Position at = new Position(Math.max(0, d.root().line() - 1), 0);
            x.setRelatedInformation(List.of(new DiagnosticRelatedInformation(
                    new Location(uris.computeIfAbsent(d.root().path(), DiagnosticMapper::uriOf), new Range(at, at)),
                    "compiled because of " + d.root().description())));
        }
        x.setData(data(d));
        return x;
    }

    /** What a client can read back without the server: rule name, Dynamo ids, fixes, why none. */
    static JsonObject data(Diagnostic d) {
        JsonObject o = new JsonObject();
        o.addProperty("rule", d.rule().name());
        JsonArray ids = new JsonArray();
        for (String id : d.dynamoIds()) ids.add(id);
        o.add("dynamo", ids);
        JsonArray fixes = new JsonArray();
        for (Diagnostic.Fix f : d.fixes()) {
            JsonObject fo = new JsonObject();
            fo.addProperty("title", f.title());
            fo.addProperty("safety", f.safety().id);
            fixes.add(fo);
        }
        o.add("fixes", fixes);
        if (d.noFixReason() != null) o.addProperty("noFixReason", d.noFixReason());
        return o;
    }

    static DiagnosticSeverity severity(Severity s) {
        switch (s) {
            case ERROR: return DiagnosticSeverity.Error;
            case WARNING: return DiagnosticSeverity.Warning;
            case INFORMATION: return DiagnosticSeverity.Information;
            default: return DiagnosticSeverity.Hint;
        }
    }

    /** A root's path (absolute, as the server names modules) as a file URI. */
    static String uriOf(String path) {
        try {
            return Path.of(path).toUri().toString();
        } catch (RuntimeException e) {
            return path;
        }
    }

    /**
     * A stable id of the diagnostics' LSP form: equal lists get equal ids. Digests the fields
     * one by one (LSP4J's toString of a 540-diagnostic list cost more than the analysis of a keystroke).
     */
    static String resultId(String uri, List<org.eclipse.lsp4j.Diagnostic> lsp) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            StringBuilder b = new StringBuilder(64 + lsp.size() * 96).append(uri).append('\0');
            for (org.eclipse.lsp4j.Diagnostic d : lsp) {
                Range r = d.getRange();
                b.append(r.getStart().getLine()).append(':').append(r.getStart().getCharacter()).append('-')
                        .append(r.getEnd().getLine()).append(':').append(r.getEnd().getCharacter()).append('\0')
                        .append(d.getSeverity()).append('\0').append(d.getCode() == null ? "" : d.getCode().get())
                        .append('\0').append(d.getMessage() == null ? "" : d.getMessage().getLeft()).append('\0');
                if (d.getRelatedInformation() != null) {
                    for (DiagnosticRelatedInformation i : d.getRelatedInformation()) {
                        b.append(i.getLocation().getUri()).append('@').append(i.getLocation().getRange().getStart().getLine())
                                .append(' ').append(i.getMessage()).append('\0');
                    }
                }
                b.append(d.getData() == null ? "" : d.getData()).append('\n');
                if (b.length() > 1 << 16) {
                    md.update(b.toString().getBytes(StandardCharsets.UTF_8));
                    b.setLength(0);
                }
            }
            md.update(b.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md.digest(), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
