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
        return toLsp(found, pos, new JsonCache());
    }

    /**
     * Maps one version's diagnostics; {@code cache} holds the JSON of the members that do not move
     * with the text from the document's previous version (a diagnostic below an edit only moves).
     */
    static List<org.eclipse.lsp4j.Diagnostic> toLsp(List<Diagnostic> found, Positions pos, JsonCache cache) {
        List<org.eclipse.lsp4j.Diagnostic> out = new ArrayList<>(found.size());
        java.util.Map<String, String> uris = new java.util.HashMap<>(); // the roots of a file are few
        java.util.Map<Object, Object> next = new java.util.HashMap<>(found.size() * 2);
        for (Diagnostic d : found) out.add(toLsp(d, pos, uris, cache.previous, next));
        cache.previous = next;
        return out;
    }

    /**
     * The JSON of the fixed members of a document's diagnostics, by what they are made of, from
     * its last mapping: entries of diagnostics that disappeared are dropped at the next one. Used
     * by the analysis thread only.
     */
    static final class JsonCache {
        private java.util.Map<Object, Object> previous = java.util.Map.of();
    }

    /**
     * What a diagnostic's fixed members are made of: its rule, severity, message, Dynamo ids, fixes
     * (title and safety) and the reason for none; not its span or root. Hashes the message only,
     * whose hash its string keeps.
     */
    private static final class FixedKey {
        final Diagnostic d;

        FixedKey(Diagnostic d) {
            this.d = d;
        }

        @Override
        public int hashCode() {
            return d.message().hashCode() * 31 + d.severity().ordinal();
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof FixedKey k)) return false;
            Diagnostic e = k.d;
            if (e == d) return true;
            if (e.rule() != d.rule() && !e.rule().equals(d.rule()) || e.severity() != d.severity() || !e.message().equals(d.message())
                    || e.dynamoIds() != d.dynamoIds() && !e.dynamoIds().equals(d.dynamoIds()) || !java.util.Objects.equals(e.noFixReason(), d.noFixReason())
                    || e.fixes().size() != d.fixes().size()) return false;
            for (int i = 0; i < d.fixes().size(); i++) {
                Diagnostic.Fix a = d.fixes().get(i), b = e.fixes().get(i);
                if (a.safety() != b.safety() || !a.title().equals(b.title())) return false;
            }
            return true;
        }
    }

    /**
     * A diagnostic's fixed members as JSON, and its {@code data} object (shared by the versions'
     * diagnostics: no one changes it, as no one changes a mapped diagnostic).
     */
    private record Fixed(String json, JsonObject data) {}

    /** What its related information is made of, but the line. */
    private record RelatedKey(String uri, String description) {}

    private static final com.google.gson.Gson GSON = new com.google.gson.GsonBuilder().disableHtmlEscaping().create();

    private static org.eclipse.lsp4j.Diagnostic toLsp(Diagnostic d, Positions pos, java.util.Map<String, String> uris,
                                                      java.util.Map<Object, Object> previous, java.util.Map<Object, Object> next) {
        DiagnosticSeverity severity = severity(d.severity());
        DiagnosticCodeDescription description = new DiagnosticCodeDescription(d.rule().docsUrl());
        FixedKey key = new FixedKey(d);
        Fixed kept = (Fixed) previous.get(key);
        if (kept == null) kept = (Fixed) next.get(key);
        if (kept == null) {
            JsonObject data = data(d);
            JsonObject href = new JsonObject();
            href.addProperty("href", description.getHref());
            JsonObject o = new JsonObject();
            o.addProperty("severity", severity.getValue());
            o.addProperty("code", d.code());
            o.addProperty("source", SOURCE);
            o.addProperty("message", d.message());
            o.add("codeDescription", href);
            o.add("data", data);
            String json = GSON.toJson(o);
            kept = new Fixed(json.substring(1, json.length() - 1), data);
        }
        next.put(key, kept);
        List<DiagnosticRelatedInformation> related = null;
        String[] relatedJson = null;
        if (d.root() != null) {
            Position at = new Position(Math.max(0, d.root().line() - 1), 0);
            String uri = uris.computeIfAbsent(d.root().path(), DiagnosticMapper::uriOf);
            String message = "compiled because of " + d.root().description();
            related = List.of(new DiagnosticRelatedInformation(new Location(uri, new Range(at, at)), message));
            RelatedKey rk = new RelatedKey(uri, message);
            relatedJson = (String[]) previous.get(rk);
            if (relatedJson == null) relatedJson = (String[]) next.get(rk);
            if (relatedJson == null) {
                relatedJson = new String[] {GSON.toJson(uri), GSON.toJson(message)};
            }
            next.put(rk, relatedJson);
        }
        return new MappedDiagnostic(pos.range(d.span()), severity, d.code(), SOURCE, d.message(), description, related, kept.data(),
                kept.json(), relatedJson);
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
