package dev.graphmend.lsp;

import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import org.eclipse.lsp4j.jsonrpc.JsonRpcException;
import org.eclipse.lsp4j.jsonrpc.json.MessageJsonHandler;
import org.eclipse.lsp4j.jsonrpc.json.StreamMessageConsumer;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.jsonrpc.messages.Message;
import org.eclipse.lsp4j.jsonrpc.messages.NotificationMessage;

/**
 * Writes outgoing messages as LSP4J's {@link StreamMessageConsumer} does ({@code Content-Length}
 * header, UTF-8 body), but encodes the JSON into one byte buffer kept from message to message.
 * LSP4J's consumer builds the message as a String, copies it into a byte array and writes that: a
 * dense file's 400 KB of diagnostics cost ~2 MB of garbage a keystroke, and young collections are
 * the edit latency's tail (docs/lsp.md, "Timing"). The JSON writer writes character by character,
 * so a buffered writer takes the characters and the JDK's encoder turns them into bytes in bulk.
 * Messages are serialised and written under one lock, so they never interleave on the stream.
 */
final class BufferedMessageConsumer extends StreamMessageConsumer {
    /** A buffer larger than this after a message is dropped, so one huge answer is not held for the session. */
    private static final int KEEP_BYTES = 4 << 20;

    private final OutputStream output;
    private final MessageJsonHandler json;
    private final Object lock = new Object();
    private Bytes bytes; // guarded by lock, and so is the writer
    private Writer writer;

    BufferedMessageConsumer(OutputStream output, MessageJsonHandler json) {
        super(output, json);
        this.output = output;
        this.json = json;
        fresh();
    }

    private void fresh() {
        bytes = new Bytes();
        writer = new BufferedWriter(new OutputStreamWriter(bytes, StandardCharsets.UTF_8), 16 * 1024);
    }

    @Override
    public void consume(Message message) {
        synchronized (lock) {
            boolean written = false;
            try {
                bytes.reset();
                if (!writtenAsPublish(message)) json.serialize(message, writer);
                writer.flush();
                output.write(("Content-Length: " + bytes.size() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                bytes.writeTo(output);
                output.flush();
                written = true;
            } catch (IOException e) {
                throw new JsonRpcException(e);
            } finally {
                // a message that failed half-way may have left characters in the writer
                if (!written || bytes.capacity() > KEEP_BYTES) fresh();
            }
        }
    }

    private static final com.google.gson.Gson STRINGS = new com.google.gson.GsonBuilder().disableHtmlEscaping().create();

    /**
     * A publish of mapped diagnostics is written here, each diagnostic straight into the writer
     * ({@link MappedDiagnostic#appendTo}): the same JSON value Gson writes, without a string per
     * diagnostic. False (nothing written) for any other message.
     */
    private boolean writtenAsPublish(Message message) throws IOException {
        if (!(message instanceof NotificationMessage n) || !"textDocument/publishDiagnostics".equals(n.getMethod())
                || !(n.getParams() instanceof PublishDiagnosticsParams p) || p.getUri() == null || p.getDiagnostics() == null) {
            return false;
        }
        for (org.eclipse.lsp4j.Diagnostic d : p.getDiagnostics()) if (!(d instanceof MappedDiagnostic)) return false;
        writer.write("{\"jsonrpc\":");
        writer.write(STRINGS.toJson(n.getJsonrpc()));
        writer.write(",\"method\":\"textDocument/publishDiagnostics\",\"params\":{\"uri\":");
        writer.write(STRINGS.toJson(p.getUri()));
        writer.write(",\"diagnostics\":[");
        boolean first = true;
        for (org.eclipse.lsp4j.Diagnostic d : p.getDiagnostics()) {
            if (!first) writer.write(',');
            first = false;
            ((MappedDiagnostic) d).appendTo(writer);
        }
        writer.write(']');
        if (p.getVersion() != null) {
            writer.write(",\"version\":");
            writer.write(Integer.toString(p.getVersion()));
        }
        writer.write("}}");
        return true;
    }

    /** A byte buffer that says how large its array has grown. */
    private static final class Bytes extends ByteArrayOutputStream {
        Bytes() {
            super(64 * 1024);
        }

        int capacity() {
            return buf.length;
        }
    }
}
