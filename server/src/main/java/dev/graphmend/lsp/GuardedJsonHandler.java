package dev.graphmend.lsp;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.Map;
import java.util.function.Consumer;
import org.eclipse.lsp4j.jsonrpc.MessageIssueException;
import org.eclipse.lsp4j.jsonrpc.json.JsonRpcMethod;
import org.eclipse.lsp4j.jsonrpc.json.MessageJsonHandler;
import org.eclipse.lsp4j.jsonrpc.messages.Message;
import org.eclipse.lsp4j.jsonrpc.messages.NotificationMessage;
import org.eclipse.lsp4j.jsonrpc.messages.RequestMessage;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;

/**
 * LSP4J's JSON handler, made to answer what it would only log. JSON-RPC 2.0 wants a response to
 * every request that cannot be processed: a body that is not JSON gets a Parse error
 * ({@code -32700}, id null); JSON that is not a request object gets Invalid Request
 * ({@code -32600}); a request whose parameters do not fit the method gets Invalid params
 * ({@code -32602}) with the request's id. LSP4J throws a plain parse exception for these, which
 * its reader logs and drops, leaving the client waiting; here they become message issues, which
 * LSP4J's endpoint answers with an error response (and only logs for notifications).
 */
final class GuardedJsonHandler extends MessageJsonHandler {
    GuardedJsonHandler(Map<String, JsonRpcMethod> methods, Consumer<GsonBuilder> configureGson) {
        super(methods, configureGson == null ? b -> { } : configureGson);
    }

    @Override
    public Message parseMessage(Reader input) throws JsonParseException {
        String text;
        try {
            StringBuilder b = new StringBuilder();
            char[] buf = new char[8192];
            for (int n; (n = input.read(buf)) >= 0; ) b.append(buf, 0, n);
            text = b.toString();
        } catch (IOException e) {
            throw new JsonParseException(e);
        }
        try {
            return super.parseMessage(new StringReader(text));
        } catch (MessageIssueException e) {
            boolean json = isJson(text);
            if (json && e.getRpcMessage() instanceof RequestMessage && ((RequestMessage) e.getRpcMessage()).getMethod() != null
                    && !e.getIssues().isEmpty() && e.getIssues().get(0).getIssueCode() == ResponseErrorCode.ParseError.getValue()) {
                throw issue(text, e); // valid JSON whose params do not fit: Invalid params, not a parse error
            }
            if (e.getRpcMessage() instanceof RequestMessage && ((RequestMessage) e.getRpcMessage()).getRawId() != null) throw e;
            if (json) throw e;
            throw issue(text, e); // LSP4J would only log it: answer with a parse error
        } catch (RuntimeException e) {
            throw issue(text, e);
        }
    }

    private static boolean isJson(String text) {
        try {
            JsonParser.parseString(text);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static MessageIssueException issue(String text, RuntimeException cause) {
        JsonElement json;
        try {
            json = JsonParser.parseString(text);
        } catch (RuntimeException notJson) {
            return new MessageIssueException(request(null, null),
                    new org.eclipse.lsp4j.jsonrpc.messages.MessageIssue("Parse error: the message is not valid JSON ("
                            + firstLine(notJson.getMessage()) + ")", ResponseErrorCode.ParseError.getValue(), notJson));
        }
        if (!json.isJsonObject()) {
            return new MessageIssueException(request(null, null), new org.eclipse.lsp4j.jsonrpc.messages.MessageIssue(
                    "Invalid Request: a JSON-RPC message must be an object", ResponseErrorCode.InvalidRequest.getValue(), cause));
        }
        JsonObject o = json.getAsJsonObject();
        String method = o.has("method") && o.get("method").isJsonPrimitive() ? o.get("method").getAsString() : null;
        JsonElement id = o.get("id");
        if (id == null || id.isJsonNull()) {
            NotificationMessage n = new NotificationMessage();
            n.setMethod(method);
            return new MessageIssueException(n, new org.eclipse.lsp4j.jsonrpc.messages.MessageIssue(
                    "Invalid notification " + method + ": " + firstLine(cause.getMessage()),
                    ResponseErrorCode.InvalidParams.getValue(), cause));
        }
        boolean params = method != null;
        return new MessageIssueException(request(id, method), new org.eclipse.lsp4j.jsonrpc.messages.MessageIssue(
                (params ? "Invalid params for " + method + ": " : "Invalid Request: ") + firstLine(cause.getMessage()),
                (params ? ResponseErrorCode.InvalidParams : ResponseErrorCode.InvalidRequest).getValue(), cause));
    }

    private static RequestMessage request(JsonElement id, String method) {
        RequestMessage r = new RequestMessage();
        r.setJsonrpc("2.0");
        if (id != null && id.isJsonPrimitive()) {
            if (id.getAsJsonPrimitive().isNumber()) r.setId(id.getAsInt());
            else r.setId(id.getAsString());
        }
        r.setMethod(method);
        return r;
    }

    private static String firstLine(String s) {
        if (s == null) return "";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

}
