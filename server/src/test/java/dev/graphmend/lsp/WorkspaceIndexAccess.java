package dev.graphmend.lsp;

import java.nio.file.Path;
import java.util.List;

/** The server's file discovery, for tests in other packages that compare it with the CLI's. */
public final class WorkspaceIndexAccess {
    private WorkspaceIndexAccess() {}

    public static List<Path> pythonFiles(List<Path> roots) {
        return WorkspaceIndex.pythonFiles(roots);
    }
}
