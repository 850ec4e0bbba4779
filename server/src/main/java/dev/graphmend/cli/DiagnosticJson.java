package dev.graphmend.cli;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.source.LineIndex;
import dev.graphmend.passes.model.Diagnostic;

/** One diagnostic in the JSON schema of docs/cli.md (0-based lines, UTF-16 characters). */
final class DiagnosticJson {
    private DiagnosticJson() {}

    /** {@code fixes}: the diagnostic's fixes with their edits built (the analysis may only describe them). */
    static JsonObject of(Diagnostic d, Diagnostic.Root root, java.util.List<Diagnostic.Fix> built, LineIndex lines) {
        JsonObject o = new JsonObject();
        o.addProperty("code", d.code());
        o.addProperty("name", d.rule().name());
        o.addProperty("severity", d.severity().id());
        o.add("range", range(lines, d.span()));
        o.addProperty("message", d.message());
        JsonArray ids = new JsonArray();
        d.dynamoIds().forEach(ids::add);
        o.add("dynamo", ids);
        if (root == null) {
            o.add("root", JsonNull.INSTANCE);
        } else {
            JsonObject r = new JsonObject();
            r.addProperty("path", root.path());
            r.addProperty("line", root.line() - 1);
            r.addProperty("description", root.description());
            o.add("root", r);
        }
        JsonArray fixes = new JsonArray();
        for (Diagnostic.Fix f : built) {
            JsonObject fo = new JsonObject();
            fo.addProperty("title", f.title());
            fo.addProperty("safety", f.safety().id);
            JsonArray edits = new JsonArray();
            for (Diagnostic.Edit e : f.edits()) {
                JsonObject eo = new JsonObject();
                eo.add("range", range(lines, e.span()));
                eo.addProperty("newText", e.newText());
                edits.add(eo);
            }
            fo.add("edits", edits);
            fixes.add(fo);
        }
        o.add("fixes", fixes);
        if (d.noFixReason() == null) o.add("noFixReason", JsonNull.INSTANCE);
        else o.addProperty("noFixReason", d.noFixReason());
        return o;
    }

    /** With --summary: every root that reaches a diagnostic, with the modes in which it does. */
    static JsonArray roots(java.util.Map<Diagnostic.Root, Integer> reaching) {
        JsonArray out = new JsonArray();
        reaching.forEach((root, modes) -> {
            JsonObject r = new JsonObject();
            r.addProperty("path", root.path());
            r.addProperty("line", root.line() - 1);
            r.addProperty("description", root.description());
            r.add("modes", modes(modes));
            out.add(r);
        });
        return out;
    }

    /** A set of modes ({@code Modes}) as a JSON array: ["eval", "train"], ["eval"] or ["train"]. */
    static JsonArray modes(int modes) {
        JsonArray a = new JsonArray();
        if ((modes & dev.graphmend.passes.analysis.Modes.EVAL) != 0) a.add("eval");
        if ((modes & dev.graphmend.passes.analysis.Modes.TRAIN) != 0) a.add("train");
        return a;
    }

    static JsonObject range(LineIndex lines, Span s) {
        int[] r = Ranges.lsp(lines, s);
        JsonObject range = new JsonObject();
        range.add("start", position(r[0], r[1]));
        range.add("end", position(r[2], r[3]));
        return range;
    }

    private static JsonObject position(int line, int character) {
        JsonObject p = new JsonObject();
        p.addProperty("line", line);
        p.addProperty("character", character);
        return p;
    }
}
