package dev.graphmend.lsp;

import com.google.gson.JsonObject;
import dev.graphmend.passes.config.TorchVersion;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * Which torch-version the rules follow in the first workspace folder, and where it came from
 * (docs/lsp.md, "Status"): logged after {@code initialized} and each configuration change, and
 * sent as {@code graphmend/status} when it changes, for the editor's status item. Finding it may
 * run the editor's interpreter (up to five seconds, once), so it is done on a worker thread.
 */
final class TorchStatus {
    private final Session session;
    /** What was last sent; guarded by this. */
    private TorchVersion sent;

    TorchStatus(Session session) {
        this.session = session;
    }

    /** Finds the version again and tells the client when it changed. */
    void update() {
        try {
            session.work.execute(this::report);
        } catch (RejectedExecutionException e) {
            // shutting down
        }
    }

    /** Serial: a report computed from older settings never overtakes a newer one. */
    private synchronized void report() {
        List<Path> folders = session.folders;
        if (folders.isEmpty() || session.shutdown) return;
        Settings.Resolved cfg = session.settings.configFor(folders.get(0).resolve("__init__.py"));
        session.configMessages.report(cfg); // a torch older than any observed is warned of once, here or by an analysis
        TorchVersion torch = cfg.config().torch();
        session.log.info("torch-version " + torch.version() + " in " + folders.get(0) + ": " + torch.describe());
        if (torch.equals(sent)) return;
        sent = torch;
        LanguageClient c = session.client;
        if (c instanceof GraphmendClient g) {
            JsonObject params = new JsonObject();
            params.addProperty("torchVersion", torch.minor());
            params.addProperty("torchVersionSource", torch.describe());
            try {
                g.status(params);
            } catch (RuntimeException e) {
                // the client is gone
            }
        }
    }
}
