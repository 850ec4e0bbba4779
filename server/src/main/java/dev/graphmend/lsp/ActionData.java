package dev.graphmend.lsp;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import dev.graphmend.passes.registry.RuleRegistry;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;

/**
 * The {@code data} of a code action sent without its edit (docs/lsp.md, "Lazy resolve"), written
 * and read here only: {@code uri}, {@code version}, {@code kind} ({@code fix}, {@code disable},
 * {@code fixAll}), and for {@code fix} and {@code disable} the index of the diagnostic in that
 * version's analysis and its rule code, and for {@code fix} the index of the fix. The client gives
 * it back unchanged; anything else (a member missing, null, of another JSON type, a number that is
 * not an int or is negative, an unknown kind or rule code, a member the kind does not have) was
 * not made by this server and is refused with {@code InvalidParams} saying what is wrong.
 */
record ActionData(String uri, int version, String kind, int diagnostic, String code, int fix) {
    static final String FIX = "fix", DISABLE = "disable", FIX_ALL = "fixAll";

    /** The members of each kind, in the order they are written. */
    private static final Map<String, List<String>> MEMBERS = Map.of(
            FIX_ALL, List.of("uri", "version", "kind"),
            DISABLE, List.of("uri", "version", "kind", "diagnostic", "code"),
            FIX, List.of("uri", "version", "kind", "diagnostic", "code", "fix"));

    static ActionData fixAll(Snapshot s) {
        return new ActionData(s.uri, s.version, FIX_ALL, -1, null, -1);
    }

    static ActionData disable(Snapshot s, int diagnostic, String code) {
        return new ActionData(s.uri, s.version, DISABLE, diagnostic, code, -1);
    }

    static ActionData fix(Snapshot s, int diagnostic, String code, int fix) {
        return new ActionData(s.uri, s.version, FIX, diagnostic, code, fix);
    }

    JsonObject toJson() {
        JsonObject o = new JsonObject();
        o.addProperty("uri", uri);
        o.addProperty("version", version);
        o.addProperty("kind", kind);
        if (!kind.equals(FIX_ALL)) {
            o.addProperty("diagnostic", diagnostic);
            o.addProperty("code", code);
        }
        if (kind.equals(FIX)) o.addProperty("fix", fix);
        return o;
    }

    /** Reads what {@link #toJson} wrote; throws {@code InvalidParams} naming what is wrong with anything else. */
    static ActionData parse(Object data) {
        if (!(data instanceof JsonElement json) || json.isJsonNull()) {
            throw invalid("the action has no data (GraphMend's actions carry {uri, version, kind, ...})");
        }
        if (!json.isJsonObject()) throw invalid("data must be an object, not " + describe(json));
        JsonObject o = json.getAsJsonObject();
        String kind = string(o, "kind");
        List<String> members = MEMBERS.get(kind);
        if (members == null) throw invalid("data.kind must be one of fix, disable, fixAll, not \"" + kind + "\"");
        for (String m : members) if (!o.has(m)) throw invalid("data." + m + " is missing (a " + kind + " action has " + members + ")");
        for (String m : o.keySet()) {
            if (!members.contains(m)) throw invalid("data." + m + " is not a member of a " + kind + " action (it has " + members + ")");
        }
        String uri = string(o, "uri");
        int version = integer(o, "version", Integer.MIN_VALUE);
        if (kind.equals(FIX_ALL)) return new ActionData(uri, version, kind, -1, null, -1);
        int diagnostic = integer(o, "diagnostic", 0);
        String code = string(o, "code");
        if (!RuleRegistry.codes().contains(code)) throw invalid("data.code \"" + code + "\" is not a GraphMend rule code");
        int fix = kind.equals(FIX) ? integer(o, "fix", 0) : -1;
        return new ActionData(uri, version, kind, diagnostic, code, fix);
    }

    private static String string(JsonObject o, String name) {
        JsonElement e = o.get(name);
        if (e == null) throw invalid("data." + name + " is missing");
        if (!(e instanceof JsonPrimitive p) || !p.isString()) throw invalid("data." + name + " must be a string, not " + describe(e));
        return p.getAsString();
    }

    /** An int member at least {@code min}: a JSON number with no fraction, in range. */
    private static int integer(JsonObject o, String name, int min) {
        JsonElement e = o.get(name);
        if (e == null) throw invalid("data." + name + " is missing");
        if (!(e instanceof JsonPrimitive p) || !p.isNumber()) throw invalid("data." + name + " must be an integer, not " + describe(e));
        int value;
        try {
            value = new BigDecimal(p.getAsString()).intValueExact();
        } catch (ArithmeticException | NumberFormatException x) {
            throw invalid("data." + name + " must be an integer between " + min + " and " + Integer.MAX_VALUE + ", not " + shorten(p.getAsString()));
        }
        if (value < min) throw invalid("data." + name + " must be at least " + min + ", not " + value);
        return value;
    }

    private static String describe(JsonElement e) {
        if (e.isJsonNull()) return "null";
        if (e.isJsonObject()) return "an object";
        if (e.isJsonArray()) return "an array";
        JsonPrimitive p = e.getAsJsonPrimitive();
        return p.isString() ? "a string" : p.isBoolean() ? "a boolean" : "the number " + shorten(p.getAsString());
    }

    private static String shorten(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }

    private static ResponseErrorException invalid(String message) {
        return Requests.error(ResponseErrorCode.InvalidParams, "codeAction/resolve: " + message);
    }
}
