package dev.graphmend.lsp;

import dev.graphmend.passes.analysis.SourceModule;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The open documents by URI, and the workspace's modules with their editor text standing in for their files. */
final class OpenDocuments {
    private final Map<String, OpenDocument> byUri = new ConcurrentHashMap<>();

    OpenDocument get(String uri) {
        return byUri.get(uri);
    }

    /** Opens {@code doc}; returns the document it replaces (opened twice), or null. */
    OpenDocument put(OpenDocument doc) {
        return byUri.put(doc.uri, doc);
    }

    OpenDocument remove(String uri) {
        return byUri.remove(uri);
    }

    boolean contains(String uri) {
        return byUri.containsKey(uri);
    }

    Collection<OpenDocument> all() {
        return byUri.values();
    }

    boolean isOpen(Path p) {
        for (OpenDocument d : byUri.values()) if (p.equals(d.snapshot().path)) return true;
        return false;
    }

    /**
     * The project around a document: the index's modules, then the open documents' (their editor
     * text stands in for their files), without {@code except}'s (null: all of them).
     */
    List<SourceModule> workspaceModules(WorkspaceIndex index, OpenDocument except) {
        Set<Path> open = new HashSet<>();
        List<SourceModule> out = new ArrayList<>();
        Path exceptPath = except == null ? null : except.snapshot().path;
        for (OpenDocument o : byUri.values()) {
            Snapshot s = o.snapshot();
            open.add(s.path);
            if (except == null || o != except && !s.path.equals(exceptPath)) out.add(s.module());
        }
        out.addAll(0, index.modulesExcept(open));
        return out;
    }
}
