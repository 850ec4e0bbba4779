package dev.graphmend.lsp;

import dev.graphmend.ir.document.PythonDocument;
import dev.graphmend.ir.document.UniIR;
import dev.graphmend.ir.symbols.Workspace;
import dev.graphmend.passes.analysis.SourceModule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * One version of an open document: its URI, the file path it stands for, the LSP version, the
 * parsed document and its UniIR. Immutable; the module the engine sees is built on first use.
 */
final class Snapshot {
    final String uri;
    final Path path;
    final int version;
    final UniIR ir;
    /** When this version was made (System.nanoTime), for the trace's timings. */
    final long createdNanos = System.nanoTime();
    /** How long applying the change that made this version took (re-parse included), for the trace; 0 when opened. */
    final long changeNanos;
    /** How many bytes applying that change allocated on the message thread, for the trace; 0 when opened. */
    final long changeBytes;
    private volatile SourceModule module;
    /** The dotted module name and whether it is a package's __init__, found once per opened document. */
    private final String moduleName;
    private final boolean isPackage;

    Snapshot(String uri, Path path, int version, UniIR ir) {
        this(uri, path, version, ir, Workspace.moduleName(sourceRoot(path), path), Workspace.isPackage(path), 0, 0);
    }

    private Snapshot(String uri, Path path, int version, UniIR ir, String moduleName, boolean isPackage, long changeNanos,
                     long changeBytes) {
        this.changeNanos = changeNanos;
        this.changeBytes = changeBytes;
        this.uri = uri;
        this.path = path;
        this.version = version;
        this.ir = ir;
        this.moduleName = moduleName;
        this.isPackage = isPackage;
    }

    /**
     * A later version of the same document (its place in the packages is not looked up again);
     * {@code changeStartedNanos} and {@code changeStartedBytes}: the clock and this thread's
     * allocation counter ({@link Threads#allocatedBytes}) when applying the change began.
     */
    Snapshot next(int version, UniIR ir, long changeStartedNanos, long changeStartedBytes) {
        return new Snapshot(uri, path, version, ir, moduleName, isPackage, System.nanoTime() - changeStartedNanos,
                Threads.allocatedBytes() - changeStartedBytes);
    }

    PythonDocument doc() { return ir.document(); }

    String text() { return ir.document().text(); }

    Positions positions(Positions.Encoding enc) {
        return new Positions(ir.lines(), enc);
    }

    /** The engine's view of this version, named after the file's place in its package. */
    SourceModule module() {
        SourceModule m = module;
        if (m == null) {
            m = new SourceModule(path.toString(), moduleName, isPackage, ir);
            module = m;
        }
        return m;
    }

    /** The nearest ancestor folder that is not a package (has no __init__.py), as ProjectLoader names modules. */
    static Path sourceRoot(Path file) {
        Path dir = file.getParent();
        while (dir != null && Files.isRegularFile(dir.resolve("__init__.py")) && dir.getParent() != null) {
            dir = dir.getParent();
        }
        return Objects.requireNonNullElse(dir, file.getParent() == null ? file : file.getParent());
    }
}
