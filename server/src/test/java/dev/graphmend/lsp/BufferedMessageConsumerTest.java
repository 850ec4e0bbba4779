package dev.graphmend.lsp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Random;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.jsonrpc.json.MessageJsonHandler;
import org.eclipse.lsp4j.jsonrpc.json.StreamMessageConsumer;
import org.eclipse.lsp4j.jsonrpc.messages.NotificationMessage;
import org.eclipse.lsp4j.jsonrpc.services.ServiceEndpoints;
import org.eclipse.lsp4j.services.LanguageClient;
import org.junit.jupiter.api.Test;

/**
 * The server's message writer against LSP4J's: the same bytes on the stream (header and UTF-8
 * body), for text with every width of UTF-8, surrogate pairs and lone surrogates, message after
 * message through one kept buffer.
 */
class BufferedMessageConsumerTest {
    private static final MessageJsonHandler JSON = new MessageJsonHandler(ServiceEndpoints.getSupportedMethods(LanguageClient.class));

    /** Characters of every UTF-8 length, a surrogate pair, and lone halves. */
    private static final char[] ALPHABET = {'a', 'Z', '"', '\\', '\n', '\u00e9', '\u07ff', '\u0800', '\u4e2d', '\uffff',
            '\ud83d', '\ude00', '\ud800', '\udfff'};

    private static String randomText(Random r, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (r.nextInt(8) == 0) b.append("\ud83d\ude00"); // a whole pair
            else b.append(ALPHABET[r.nextInt(ALPHABET.length)]);
        }
        return b.toString();
    }

    private static NotificationMessage publish(String message, int n) {
        Diagnostic d = new Diagnostic(new Range(new Position(n, 1), new Position(n, 5)), message);
        NotificationMessage m = new NotificationMessage();
        m.setMethod("textDocument/publishDiagnostics");
        m.setParams(new PublishDiagnosticsParams("file:///w/m\u00e9.py", List.of(d, d), n));
        return m;
    }

    @Test
    void writesTheBytesLsp4jWrites() {
        Random r = new Random(17);
        ByteArrayOutputStream ours = new ByteArrayOutputStream(), theirs = new ByteArrayOutputStream();
        BufferedMessageConsumer mine = new BufferedMessageConsumer(ours, JSON);
        StreamMessageConsumer lsp4j = new StreamMessageConsumer(theirs, JSON);
        for (int i = 0; i < 300; i++) {
            // large messages in between grow the kept buffer (one past what is kept); the small ones after must not carry old bytes
            int size = i == 150 ? 3_000_000 : i % 50 == 0 ? 100_000 : r.nextInt(40);
            NotificationMessage m = publish(randomText(r, size), i);
            mine.consume(m);
            lsp4j.consume(m);
        }
        assertArrayEquals(theirs.toByteArray(), ours.toByteArray());
    }
}
