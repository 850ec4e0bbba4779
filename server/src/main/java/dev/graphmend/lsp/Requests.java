package dev.graphmend.lsp;

import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;

/** What the handlers share to read a request's URIs and positions and to answer with an error. */
final class Requests {
    private Requests() {}

    static <T> CompletableFuture<T> failed(int code, String message) {
        return CompletableFuture.failedFuture(new ResponseErrorException(new ResponseError(code, message, null)));
    }

    static <T> CompletableFuture<T> failed(ResponseErrorCode code, String message) {
        return failed(code.getValue(), message);
    }

    static ResponseErrorException error(ResponseErrorCode code, String message) {
        return new ResponseErrorException(new ResponseError(code, message, null));
    }

    static boolean negative(Position p) {
        return p.getLine() < 0 || p.getCharacter() < 0;
    }

    /** A file URI's path; null for other schemes or malformed URIs. */
    static Path filePath(String uri) {
        if (uri == null) return null;
        try {
            URI u = URI.create(uri);
            if (!"file".equalsIgnoreCase(u.getScheme())) return null;
            return Path.of(u).toAbsolutePath().normalize();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The path a document stands for: its file, or a made-up one for untitled and other schemes. */
    static Path documentPath(String uri) {
        Path p = filePath(uri);
        if (p != null) return p;
        if (uri == null || uri.isEmpty()) return null;
        String name = uri.replaceAll("[^A-Za-z0-9_]", "_");
        return Path.of(System.getProperty("java.io.tmpdir"), "graphmend-untitled", name + ".py").toAbsolutePath();
    }
}
