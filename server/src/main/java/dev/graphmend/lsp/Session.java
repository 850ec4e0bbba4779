package dev.graphmend.lsp;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * What every handler of one server shares: the log, the client and what it can do, the workspace
 * folders, the settings (with the torch version each project uses), the index of the workspace's files, the open documents and the
 * threads requests are answered on. The fields
 * set by the lifecycle ({@code client}, {@code caps}, {@code folders}, {@code shutdown}) are
 * volatile: handlers run on LSP4J's message thread and on the server's worker threads.
 */
final class Session {
    final Log log;
    final Settings settings;
    final ConfigMessages configMessages;
    final WorkspaceIndex index = new WorkspaceIndex();
    final OpenDocuments docs = new OpenDocuments();
    /** Where requests that wait for an analysis build their answers (never the message thread). */
    final ExecutorService work = Executors.newFixedThreadPool(2, Threads.daemon("graphmend-work"));

    volatile LanguageClient client;
    volatile ClientCaps caps = ClientCaps.of(null);
    volatile List<Path> folders = List.of();
    volatile boolean shutdown;

    /** A session that reads no process environment (for tests): the project's own files still say its torch. */
    Session(Log log) {
        this(log, java.util.Map.of());
    }

    /** @param environment the process environment, where the project's torch may be installed ({@code VIRTUAL_ENV}, ...) */
    Session(Log log, java.util.Map<String, String> environment) {
        this.log = log;
        this.settings = new Settings(environment, () -> folders);
        this.configMessages = new ConfigMessages(log, () -> client);
    }

    /** Whether {@code p} lies in one of the workspace folders (what the index may read). */
    boolean underFolders(Path p) {
        if (p == null) return false;
        for (Path f : folders) if (p.startsWith(f)) return true;
        return false;
    }
}
