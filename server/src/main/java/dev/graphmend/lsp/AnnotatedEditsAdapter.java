package dev.graphmend.lsp;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.TypeAdapter;
import com.google.gson.TypeAdapterFactory;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import org.eclipse.lsp4j.AnnotatedTextEdit;
import org.eclipse.lsp4j.TextEdit;

/**
 * Writes a {@link TextEdit} by its runtime class. LSP4J serialises the edits of a
 * {@code TextDocumentEdit} with the adapter of the declared type {@code TextEdit}, which drops
 * the {@code annotationId} of an {@link AnnotatedTextEdit}, and with it the change annotation
 * that makes the editor preview the edit. Reading gives an {@code AnnotatedTextEdit} when the
 * JSON has an {@code annotationId}.
 */
final class AnnotatedEditsAdapter implements TypeAdapterFactory {
    @Override
    @SuppressWarnings("unchecked")
    public <T> TypeAdapter<T> create(Gson gson, TypeToken<T> type) {
        if (type.getRawType() != TextEdit.class) return null;
        TypeAdapter<TextEdit> plain = gson.getDelegateAdapter(this, TypeToken.get(TextEdit.class));
        TypeAdapter<AnnotatedTextEdit> annotated = gson.getAdapter(AnnotatedTextEdit.class);
        TypeAdapter<JsonElement> json = gson.getAdapter(JsonElement.class);
        return (TypeAdapter<T>) new TypeAdapter<TextEdit>() {
            @Override
            public void write(JsonWriter out, TextEdit value) throws IOException {
                if (value instanceof AnnotatedTextEdit) annotated.write(out, (AnnotatedTextEdit) value);
                else plain.write(out, value);
            }

            @Override
            public TextEdit read(JsonReader in) throws IOException {
                JsonElement e = json.read(in);
                if (e != null && e.isJsonObject() && e.getAsJsonObject().has("annotationId")) return annotated.fromJsonTree(e);
                return plain.fromJsonTree(e);
            }
        };
    }
}
