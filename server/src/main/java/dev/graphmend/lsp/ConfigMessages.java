package dev.graphmend.lsp;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * The configuration's errors and warnings, each shown to the user once (logged, and as a
 * {@code window/showMessage}) until the configuration changes (docs/lsp.md, "Settings").
 */
final class ConfigMessages {
    private final Log log;
    private final Supplier<LanguageClient> client;
    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    ConfigMessages(Log log, Supplier<LanguageClient> client) {
        this.log = log;
        this.client = client;
    }

    /** Reports what resolving a file's configuration found wrong, once each. */
    void report(Settings.Resolved cfg) {
        for (String err : cfg.errors()) show(err, true);
        for (String w : cfg.warnings()) show(w, false);
    }

    /** After a change of the configuration the same mistakes are reported again. */
    void clear() {
        reported.clear();
    }

    private void show(String message, boolean error) {
        if (!reported.add(message)) return;
        // an error drops its layer; an unknown key leaves the rest of its table applying
        if (error) log.error("configuration: " + message + " (this layer is ignored)");
        else log.warn("configuration: " + message);
        LanguageClient c = client.get();
        if (c != null) c.showMessage(new MessageParams(MessageType.Warning, "GraphMend configuration: " + message));
    }
}
