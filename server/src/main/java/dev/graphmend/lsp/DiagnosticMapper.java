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
        for (Diagnostic d : found) out.add(toLsp(d, pos));
        return out;
    }

    static org.eclipse.lsp4j.Diagnostic toLsp(Diagnostic d, Positions pos) {
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
                    new Location(uriOf(d.root().path()), new Range(at, at)),
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

    /** A stable id of the diagnostics' LSP form: equal lists get equal ids. */
    static String resultId(String uri, List<org.eclipse.lsp4j.Diagnostic> lsp) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(uri.getBytes(StandardCharsets.UTF_8));
            md.update(lsp.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md.digest(), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
