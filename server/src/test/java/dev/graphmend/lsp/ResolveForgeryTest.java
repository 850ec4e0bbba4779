package dev.graphmend.lsp;

import static dev.graphmend.lsp.Harness.range;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code codeAction/resolve} with forged data (issue 40): the data of the three kinds of action the
 * server sends (fix, disable, fixAll), each member removed, nulled, given another JSON type, nested,
 * or given a value out of range, and forged wholes. Every one is answered with {@code InvalidParams}
 * (or {@code ContentModified} where the data could be an older analysis's), never an internal
 * error, and the server still resolves the real actions afterwards.
 */
@Timeout(120)
class ResolveForgeryTest {
    static final String URI = DiagnosticsTest.URI;
    static final int INVALID = ResponseErrorCode.InvalidParams.getValue();
    static final int MODIFIED = ResponseErrorCode.ContentModified.getValue();

    /** What a forged params object is expected to get. */
    record Forgery(String name, String params, int expected) {}

    private static String params(JsonElement data) {
        JsonObject p = new JsonObject();
        p.addProperty("title", "forged");
        if (data != null) p.add("data", data);
        return p.toString();
    }

    private static JsonObject with(JsonObject real, String member, JsonElement value) {
        JsonObject o = real.deepCopy();
        if (value == null) o.remove(member);
        else o.add(member, value);
        return o;
    }

    /** For each member of each kind's real data: removed, null, each other JSON type, nested, out-of-range values. */
    static List<Forgery> forgeries(Map<String, JsonObject> real, int version) {
        List<Forgery> out = new ArrayList<>();
        for (var kind : real.entrySet()) {
            JsonObject data = kind.getValue();
            for (String member : data.keySet()) {
                JsonElement v = data.get(member);
                String at = kind.getKey() + "." + member;
                out.add(new Forgery(at + " removed", params(with(data, member, null)), INVALID));
                out.add(new Forgery(at + " null", params(with(data, member, JsonNull.INSTANCE)), INVALID));
                out.add(new Forgery(at + " boolean", params(with(data, member, new JsonPrimitive(true))), INVALID));
                JsonArray array = new JsonArray();
                array.add(v);
                out.add(new Forgery(at + " in an array", params(with(data, member, array)), INVALID));
                JsonObject nested = new JsonObject();
                nested.add(member, v);
                out.add(new Forgery(at + " in an object", params(with(data, member, nested)), INVALID));
                if (v.getAsJsonPrimitive().isNumber()) {
                    out.add(new Forgery(at + " as a string", params(with(data, member, new JsonPrimitive(v.getAsString()))), INVALID));
                    for (String n : List.of("-1", "-2147483649", "2147483648", "1e30", "99999999999999999999999999", "0.5", "1e999999999999")) {
                        // (a version is any int: -1 is only not the document's)
                        int expected = member.equals("version") && n.equals("-1") ? MODIFIED : INVALID;
                        out.add(new Forgery(at + " = " + n, params(with(data, member, JsonParser.parseString(n))), expected));
                    }
                    // well-formed numbers this version's analysis does not have: an older analysis's
                    out.add(new Forgery(at + " = 100000", params(with(data, member, new JsonPrimitive(100_000))), MODIFIED));
                } else {
                    out.add(new Forgery(at + " as a number", params(with(data, member, new JsonPrimitive(7))), INVALID));
                    int unknown = member.equals("uri") || member.equals("kind") || member.equals("code") ? INVALID : MODIFIED;
                    out.add(new Forgery(at + " = \"nope\"", params(with(data, member, new JsonPrimitive("nope"))), unknown));
                    out.add(new Forgery(at + " = \"\"", params(with(data, member, new JsonPrimitive(""))), unknown));
                }
            }
            out.add(new Forgery(kind.getKey() + " with an extra member", params(with(data, "extra", new JsonPrimitive(1))), INVALID));
            out.add(new Forgery(kind.getKey() + " nested in data", params(with(new JsonObject(), "data", data)), INVALID));
            out.add(new Forgery(kind.getKey() + " in an array", params(JsonParser.parseString("[" + data + "]")), INVALID));
            out.add(new Forgery(kind.getKey() + " of a document not open", params(with(data, "uri",
                    new JsonPrimitive("file:///tmp/graphmend-lsp-test/not-open.py"))), INVALID));
            out.add(new Forgery(kind.getKey() + " of a later version", params(with(data, "version", new JsonPrimitive(version + 5))), MODIFIED));
        }
        JsonObject fix = real.get("fix");
        out.add(new Forgery("fix with the code of another rule", params(with(fix, "code", new JsonPrimitive("GM102"))), MODIFIED));
        out.add(new Forgery("fix with an unknown rule code", params(with(fix, "code", new JsonPrimitive("GM999"))), INVALID));
        out.add(new Forgery("fix of kind disable with a fix member", params(with(fix, "kind", new JsonPrimitive("disable"))), INVALID));
        out.add(new Forgery("disable of kind fix without a fix member", params(with(real.get("disable"), "kind", new JsonPrimitive("fix"))), INVALID));
        out.add(new Forgery("fixAll of kind fix", params(with(real.get("fixAll"), "kind", new JsonPrimitive("fix"))), INVALID));
        for (String whole : List.of("null", "true", "3", "\"fix\"", "[]", "{}")) {
            out.add(new Forgery("data " + whole, params(JsonParser.parseString(whole)), INVALID));
        }
        out.add(new Forgery("no data", params(null), INVALID));
        return out;
    }

    @Test
    void forgedDataIsInvalidParamsAndTheServerGoesOn() throws Exception {
        try (Harness h = new Harness(FakeFixes.engine())) {
            h.initialize(Harness.caps(false, true, true), null);
            h.open(URI, Texts.SAMPLE, 1);
            h.published(URI, 1);
            List<CodeAction> as = CodeActionTest.actions(h, range(0, 0, 9, 0), null);
            CodeAction fix = CodeActionTest.titled(as, "Rewrite to torch.where");
            Map<String, JsonObject> real = new LinkedHashMap<>();
            real.put("fix", (JsonObject) fix.getData());
            real.put("disable", (JsonObject) CodeActionTest.titled(as, "Disable GM101 for this line").getData());
            real.put("fixAll", (JsonObject) CodeActionTest.titled(as, "Fix all GraphMend problems in this file").getData());

            List<Forgery> forged = forgeries(real, 1);
            assertTrue(forged.size() >= 43, "" + forged.size());
            int id = 5000;
            for (Forgery f : forged) {
                h.rawMessage("{\"jsonrpc\":\"2.0\",\"id\":" + id++ + ",\"method\":\"codeAction/resolve\",\"params\":" + f.params() + "}");
            }
            // and params that are not a code action at all
            for (String p : List.of("null", "7", "\"x\"", "[]", "{\"data\": " + real.get("fix") + "}")) {
                h.rawMessage("{\"jsonrpc\":\"2.0\",\"id\":" + id++ + ",\"method\":\"codeAction/resolve\",\"params\":" + p + "}");
            }
            h.rawMessage("{\"jsonrpc\":\"2.0\",\"id\":" + id++ + ",\"method\":\"codeAction/resolve\"}");

            Map<Integer, Integer> byCode = new TreeMap<>();
            List<String> wrong = new ArrayList<>();
            for (int i = 5000; i < id; i++) {
                String key = Integer.toString(i);
                ResponseMessage m = h.response(r -> key.equals(r.getId()));
                int code = m.getError() == null ? 0 : m.getError().getCode();
                byCode.merge(code, 1, Integer::sum);
                Forgery f = i - 5000 < forged.size() ? forged.get(i - 5000) : new Forgery("params " + (i - 5000 - forged.size()), "", INVALID);
                if (code != f.expected()) wrong.add(f.name() + ": " + (m.getError() == null ? "answered " + m.getResult() : code + " " + m.getError().getMessage()));
                else assertTrue(m.getError().getMessage().length() > 10, f.name() + ": " + m.getError().getMessage());
            }
            System.out.println("codeAction/resolve, " + (id - 5000) + " forged params, answers by error code: " + byCode);
            assertEquals(List.of(), wrong, "by code " + byCode);

            // still serving: the real actions resolve
            CodeAction resolved = h.remote.getTextDocumentService().resolveCodeAction(fix).get(10, TimeUnit.SECONDS);
            assertEquals("x.shape[0] > 0", Texts.docEdit(resolved.getEdit()).getEdits().get(0).getLeft().getNewText());
            assertNotNull(h.remote.getTextDocumentService().resolveCodeAction(CodeActionTest.titled(as, "Disable GM101 for this line"))
                    .get(10, TimeUnit.SECONDS).getEdit());
            RobustnessTest.stillServing(h);
        }
    }
}
