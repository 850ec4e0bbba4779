package dev.graphmend.lsp;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.ConfigurationItem;
import org.eclipse.lsp4j.ConfigurationParams;
import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * The editor's settings (docs/lsp.md, "Settings"): asked for with {@code workspace/configuration}
 * when the client supports it, else taken from {@code didChangeConfiguration}; each change
 * re-analyses every open document, and pull clients are asked to pull again once the new results
 * are there.
 */
final class ConfigurationHandler {
    private final Session session;
    private final AnalysisScheduler scheduler;
    private final TorchStatus torchStatus;

    ConfigurationHandler(Session session, AnalysisScheduler scheduler, TorchStatus torchStatus) {
        this.session = session;
        this.scheduler = scheduler;
        this.torchStatus = torchStatus;
    }

    void didChangeConfiguration(DidChangeConfigurationParams params) {
        if (session.caps.configuration()) {
            fetch();
        } else {
            session.settings.setEditorSettings(params == null ? null : params.getSettings());
            changed();
        }
    }

    /** Asks the client for the {@code graphmend} section, then applies it. */
    void fetch() {
        LanguageClient c = session.client;
        if (c == null) return;
        ConfigurationItem item = new ConfigurationItem();
        item.setSection("graphmend");
        c.configuration(new ConfigurationParams(List.of(item))).whenComplete((values, err) -> {
            if (err != null) {
                session.log.warn("workspace/configuration failed: " + err.getMessage());
                torchStatus.update(); // with the initializationOptions alone
                return;
            }
            session.settings.setEditorSettings(values == null || values.isEmpty() ? null : values.get(0));
            changed();
        });
    }

    /** Some layer of the configuration changed (the editor's settings, a pyproject.toml, a pin or an installed torch). */
    void changed() {
        session.configMessages.clear();
        session.settings.forgetFiles();
        torchStatus.update();
        scheduler.scheduleAll(0);
        LanguageClient c = session.client;
        if (c != null && session.caps.pullDiagnostics() && session.caps.diagnosticRefresh()) {
            CompletableFuture.runAsync(() -> {
                for (OpenDocument e : session.docs.all()) {
                    try {
                        scheduler.analysisOf(e).get(30, TimeUnit.SECONDS);
                    } catch (Exception ex) {
                        // closed or failed: nothing to wait for
                    }
                }
                c.refreshDiagnostics();
            }, session.work);
        }
    }
}
