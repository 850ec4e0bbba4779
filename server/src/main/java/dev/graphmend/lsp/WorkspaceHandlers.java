package dev.graphmend.lsp;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.DidChangeWatchedFilesParams;
import org.eclipse.lsp4j.DidChangeWorkspaceFoldersParams;
import org.eclipse.lsp4j.ExecuteCommandParams;
import org.eclipse.lsp4j.FileChangeType;
import org.eclipse.lsp4j.FileEvent;
import org.eclipse.lsp4j.WorkspaceFolder;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;
import org.eclipse.lsp4j.services.WorkspaceService;

/**
 * The {@code workspace/*} requests and notifications (docs/lsp.md, "Workspace" and "Settings"):
 * files changed on disk go to the index on the indexing thread (an open document's editor text
 * wins over its file), folders re-index, configuration goes to {@link ConfigurationHandler}, the
 * fix-all command to {@link CodeActionHandlers}.
 */
final class WorkspaceHandlers implements WorkspaceService {
    private final Session session;
    private final AnalysisScheduler scheduler;
    private final WorkspaceIndexing indexing;
    private final ConfigurationHandler configuration;
    private final TorchStatus torchStatus;
    private final CodeActionHandlers codeActions;

    WorkspaceHandlers(Session session, AnalysisScheduler scheduler, WorkspaceIndexing indexing,
                      ConfigurationHandler configuration, TorchStatus torchStatus, CodeActionHandlers codeActions) {
        this.session = session;
        this.scheduler = scheduler;
        this.indexing = indexing;
        this.configuration = configuration;
        this.torchStatus = torchStatus;
        this.codeActions = codeActions;
    }

    @Override
    public void didChangeConfiguration(DidChangeConfigurationParams params) {
        configuration.didChangeConfiguration(params);
    }

    @Override
    public void didChangeWatchedFiles(DidChangeWatchedFilesParams params) {
        boolean config = false;
        List<FileEvent> py = new ArrayList<>();
        for (FileEvent ev : params.getChanges()) {
            Path p = Requests.filePath(ev.getUri());
            if (p == null) continue;
            String name = p.getFileName() == null ? "" : p.getFileName().toString();
            if (name.equals("pyproject.toml") || saysTheTorchVersion(p)) config = true;
            else if (name.endsWith(".py")) py.add(ev);
        }
        boolean reconfigure = config;
        indexing.later(() -> {
            for (FileEvent ev : py) {
                Path p = Requests.filePath(ev.getUri());
                if (session.docs.contains(ev.getUri()) || !session.underFolders(p)) continue; // the editor's text wins
                if (ev.getType() == FileChangeType.Deleted) session.index.remove(p);
                else session.index.update(p);
            }
            if (reconfigure) configuration.changed();
            else if (!py.isEmpty()) scheduler.workspaceChanged();
        });
    }

    @Override
    public void didChangeWorkspaceFolders(DidChangeWorkspaceFoldersParams params) {
        Set<Path> set = new LinkedHashSet<>(session.folders);
        var ev = params.getEvent();
        if (ev != null && ev.getRemoved() != null) for (WorkspaceFolder f : ev.getRemoved()) set.remove(Requests.filePath(f.getUri()));
        if (ev != null && ev.getAdded() != null) for (WorkspaceFolder f : ev.getAdded()) {
            Path p = Requests.filePath(f.getUri());
            if (p != null) set.add(p);
        }
        session.folders = List.copyOf(set);
        torchStatus.update(); // the first folder may be another
        indexing.start();
    }

    /** A pin (lock or requirements file) or an installed torch's metadata: where the torch version may come from. */
    private static boolean saysTheTorchVersion(Path p) {
        String name = p.getFileName().toString();
        if (name.equals("uv.lock") || name.equals("poetry.lock") || name.equals("pdm.lock")) return true;
        if (name.startsWith("requirements") && name.endsWith(".txt")) return true;
        Path parent = p.getParent();
        return name.equals("METADATA") && parent != null && parent.getFileName() != null
                && parent.getFileName().toString().startsWith("torch-") && parent.getFileName().toString().endsWith(".dist-info");
    }

    @Override
    public CompletableFuture<Object> executeCommand(ExecuteCommandParams params) {
        if (!GraphmendServer.FIX_ALL_COMMAND.equals(params.getCommand())) {
            return Requests.failed(ResponseErrorCode.InvalidParams, "unknown command: " + params.getCommand());
        }
        return codeActions.fixAll(params.getArguments());
    }
}
