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
 * JSON values from version to version by the mapper; the range and the compile root's line are
 * written each time, straight into the message's writer (a string per diagnostic was ~0.9 MB of
 * garbage a keystroke on a dense file). Immutable once built, so the JSON cannot disagree with the fields.
 */
final class MappedDiagnostic extends Diagnostic {
    /** The fixed members in order, each name followed by its value as JSON: {@code severity, 2, code, "GM101", …}. */
    private final String[] fixedMembers;
    /** The related information's location URI and message as JSON strings; or null. */
    private final String[] relatedJson;
    private final boolean built;

    MappedDiagnostic(Range range, DiagnosticSeverity severity, String code, String source, String message,
                     DiagnosticCodeDescription description, List<DiagnosticRelatedInformation> related, JsonElement data,
                     String[] fixedMembers, String[] relatedJson) {
        super.setRange(range);
        super.setSeverity(severity);
        super.setCode(code);
        super.setSource(source);
        super.setMessage(message);
        super.setCodeDescription(description);
        super.setRelatedInformation(related);
        super.setData(data);
        this.fixedMembers = fixedMembers;
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

    /** Writes this diagnostic: the same object LSP4J's reflective adapter writes (members in another order). */
    void write(JsonWriter out) throws IOException {
        out.beginObject().name("range");
        Range r = getRange();
        range(out, r.getStart().getLine(), r.getStart().getCharacter(), r.getEnd().getLine(), r.getEnd().getCharacter());
        if (relatedJson != null) {
            int line = getRelatedInformation().get(0).getLocation().getRange().getStart().getLine();
            out.name("relatedInformation").beginArray().beginObject().name("location").beginObject()
                    .name("uri").jsonValue(relatedJson[0]).name("range");
            range(out, line, 0, line, 0);
            out.endObject().name("message").jsonValue(relatedJson[1]).endObject().endArray();
        }
        for (int i = 0; i < fixedMembers.length; i += 2) out.name(fixedMembers[i]).jsonValue(fixedMembers[i + 1]);
        out.endObject();
    }

    private static void range(JsonWriter out, int line, int character, int endLine, int endCharacter) throws IOException {
        out.beginObject().name("start").beginObject().name("line").value(line).name("character").value(character).endObject()
                .name("end").beginObject().name("line").value(endLine).name("character").value(endCharacter).endObject()
                .endObject();
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
                    if (d instanceof MappedDiagnostic m) m.write(out);
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
