package dev.graphmend.lsp;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.TypeAdapter;
import com.google.gson.TypeAdapterFactory;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.util.List;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticCodeDescription;
import org.eclipse.lsp4j.DiagnosticRelatedInformation;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.DiagnosticTag;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.jsonrpc.messages.Either;

/**
 * An LSP diagnostic built by {@link DiagnosticMapper} that carries the JSON of its members, so it
 * is written without LSP4J's reflective serialisation: publishing the 540 diagnostics of a dense
 * file cost ~4 ms a keystroke, most of it escaping the same messages again. The members that do
 * not move with the text (severity, code, source, message, code description, data) are kept as
 * one piece of JSON, kept from version to version by the mapper; the range and the compile root's
 * line are written each time. A publish is written straight into the message's writer
 * ({@link BufferedMessageConsumer}: a string per diagnostic was ~0.9 MB of garbage a keystroke on a
 * dense file; Gson's writer, member by member, took 3.5 times as long). Immutable once built, so
 * the JSON cannot disagree with the fields.
 */
final class MappedDiagnostic extends Diagnostic {
    /** The fixed members, {@code "severity":…,"data":{…}}, without braces. */
    private final String fixedJson;
    /** The related information's location URI and message as JSON strings; or null. */
    private final String[] relatedJson;
    private final boolean built;

    MappedDiagnostic(Range range, DiagnosticSeverity severity, String code, String source, String message,
                     DiagnosticCodeDescription description, List<DiagnosticRelatedInformation> related, JsonElement data,
                     String fixedJson, String[] relatedJson) {
        super.setRange(range);
        super.setSeverity(severity);
        super.setCode(code);
        super.setSource(source);
        super.setMessage(message);
        super.setCodeDescription(description);
        super.setRelatedInformation(related);
        super.setData(data);
        this.fixedJson = fixedJson;
        this.relatedJson = relatedJson;
        this.built = true;
    }

    private void frozen() {
        if (built) throw new UnsupportedOperationException("a mapped diagnostic is immutable (its JSON is kept with it)");
    }

    @Override public void setRange(Range range) { frozen(); super.setRange(range); }
    @Override public void setSeverity(DiagnosticSeverity severity) { frozen(); super.setSeverity(severity); }
    @Override public void setCode(Either<String, Integer> code) { frozen(); super.setCode(code); }
    @Override public void setCode(String code) { frozen(); super.setCode(code); }
    @Override public void setCode(Integer code) { frozen(); super.setCode(code); }
    @Override public void setSource(String source) { frozen(); super.setSource(source); }
    @Override public void setMessage(Either<String, org.eclipse.lsp4j.MarkupContent> message) { frozen(); super.setMessage(message); }
    @Override public void setMessage(String message) { frozen(); super.setMessage(message); }
    @Override public void setMessage(org.eclipse.lsp4j.MarkupContent message) { frozen(); super.setMessage(message); }
    @Override public void setCodeDescription(DiagnosticCodeDescription d) { frozen(); super.setCodeDescription(d); }
    @Override public void setRelatedInformation(List<DiagnosticRelatedInformation> r) { frozen(); super.setRelatedInformation(r); }
    @Override public void setData(Object data) { frozen(); super.setData(data); }
    @Override public void setTags(List<DiagnosticTag> tags) { frozen(); super.setTags(tags); }

    /** Appends this diagnostic as JSON: the same object LSP4J's reflective adapter writes (members in another order). */
    void appendTo(Appendable out) throws IOException {
        Range r = getRange();
        out.append("{\"range\":");
        range(out, r.getStart().getLine(), r.getStart().getCharacter(), r.getEnd().getLine(), r.getEnd().getCharacter());
        out.append(',');
        if (relatedJson != null) {
            int line = getRelatedInformation().get(0).getLocation().getRange().getStart().getLine();
            out.append("\"relatedInformation\":[{\"location\":{\"uri\":").append(relatedJson[0]).append(",\"range\":");
            range(out, line, 0, line, 0);
            out.append("},\"message\":").append(relatedJson[1]).append("}],");
        }
        out.append(fixedJson).append('}');
    }

    /** This diagnostic as JSON (see {@link #appendTo}). */
    String toJson() {
        // sized for the whole: a builder that grows copies it
        StringBuilder b = new StringBuilder(fixedJson.length() + 96 + (relatedJson == null ? 0
                : relatedJson[0].length() + relatedJson[1].length() + 160));
        try {
            appendTo(b);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e); // a StringBuilder does not throw
        }
        return b.toString();
    }

    private static void range(Appendable out, int line, int character, int endLine, int endCharacter) throws IOException {
        out.append("{\"start\":{\"line\":").append(Integer.toString(line)).append(",\"character\":")
                .append(Integer.toString(character)).append("},\"end\":{\"line\":").append(Integer.toString(endLine))
                .append(",\"character\":").append(Integer.toString(endCharacter)).append("}}");
    }

    /**
     * The Gson factory LSP4J's handler is configured with: mapped diagnostics are written from
     * their JSON; any other diagnostic, and every read, goes to LSP4J's own adapter.
     */
    static final class Adapter implements TypeAdapterFactory {
        @Override
        @SuppressWarnings("unchecked")
        public <T> TypeAdapter<T> create(Gson gson, TypeToken<T> type) {
            if (!Diagnostic.class.isAssignableFrom(type.getRawType())) return null;
            TypeAdapter<Diagnostic> lsp4j = gson.getDelegateAdapter(this, TypeToken.get(Diagnostic.class));
            return (TypeAdapter<T>) new TypeAdapter<Diagnostic>() {
                @Override
                public void write(JsonWriter out, Diagnostic d) throws IOException {
                    if (d instanceof MappedDiagnostic m) out.jsonValue(m.toJson());
                    else lsp4j.write(out, d);
                }

                @Override
                public Diagnostic read(JsonReader in) throws IOException {
                    return lsp4j.read(in);
                }
            };
        }
    }
}
