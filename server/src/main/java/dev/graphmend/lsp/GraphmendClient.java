package dev.graphmend.lsp;

import com.google.gson.JsonObject;
import org.eclipse.lsp4j.jsonrpc.services.JsonNotification;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * The client as this server speaks to it: LSP, and GraphMend's own notification (docs/lsp.md,
 * "Status"). A client that does not know it drops it, as LSP says of unknown notifications.
 */
public interface GraphmendClient extends LanguageClient {
    /** {@code {"torchVersion": "2.10", "torchVersionSource": "torch 2.10.0 installed in /p/.venv (…)"}}. */
    @JsonNotification("graphmend/status")
    void status(JsonObject params);
}
