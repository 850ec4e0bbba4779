package dev.graphmend.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * The commands' standard output, buffered: text in UTF-8, and bytes as they are for what must
 * reach its reader byte for byte ({@code fix --diff}: each file's lines in the file's own
 * encoding). A failed write throws, so that {@code graphmend ast big/ | head} stops once head has
 * had enough; a command whose work matters more than its output ({@code check}, {@code fix},
 * whose output reports what it did to the files) calls {@link #keepGoingOnFailure()}: the first
 * failure is kept, later output dropped, and {@link #exitStatus} reports it at the end.
 */
final class Stdout extends Writer {
    private final OutputStream raw;
    private final byte[] buffer = new byte[1 << 16];
    private int buffered;
    /** A high surrogate written last, held until its low half comes, so the pair encodes as one character. */
    private String pendingHigh = "";
    private boolean keepGoing;
    private IOException failure;

    Stdout(OutputStream raw) {
        this.raw = raw;
    }

    /** From now on a failed write is kept for {@link #exitStatus} instead of thrown; what follows is dropped. */
    void keepGoingOnFailure() {
        keepGoing = true;
    }

    /**
     * {@code code}, once everything is written; when the output could not be written: the reason
     * on {@code err}, saying that {@code stillDone} all the same, and exit status 2.
     */
    int exitStatus(int code, PrintStream err, String stillDone) throws IOException {
        flush();
        if (failure == null) return code;
        String reason = failure.getMessage() != null ? failure.getMessage() : failure.toString();
        err.println("graphmend: cannot write standard output (" + reason + "); " + stillDone);
        return Main.EXIT_USAGE;
    }

    @Override
    public void write(char[] chars, int off, int len) throws IOException {
        write(new String(chars, off, len));
    }

    @Override
    public void write(String s, int off, int len) throws IOException {
        String text = pendingHigh + s.substring(off, off + len);
        pendingHigh = "";
        if (!text.isEmpty() && Character.isHighSurrogate(text.charAt(text.length() - 1))) {
            pendingHigh = text.substring(text.length() - 1);
            text = text.substring(0, text.length() - 1);
        }
        writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Bytes written as they are, after the text before them. */
    void writeBytes(byte[] bytes) throws IOException {
        if (failure != null) return;
        if (bytes.length > buffer.length - buffered) drain();
        if (bytes.length >= buffer.length) {
            send(bytes, bytes.length);
        } else {
            System.arraycopy(bytes, 0, buffer, buffered, bytes.length);
            buffered += bytes.length;
        }
    }

    @Override
    public void flush() throws IOException {
        if (!pendingHigh.isEmpty()) { // a lone high surrogate: written as UTF-8 writes it ('?')
            writeBytes(pendingHigh.getBytes(StandardCharsets.UTF_8));
            pendingHigh = "";
        }
        drain();
        if (failure != null) return;
        try {
            raw.flush();
        } catch (IOException e) {
            fail(e);
        }
    }

    @Override
    public void close() throws IOException {
        flush();
    }

    private void drain() throws IOException {
        if (buffered == 0 || failure != null) return;
        int n = buffered;
        buffered = 0;
        send(buffer, n);
    }

    private void send(byte[] bytes, int n) throws IOException {
        try {
            raw.write(bytes, 0, n);
        } catch (IOException e) {
            fail(e);
        }
    }

    private void fail(IOException e) throws IOException {
        if (!keepGoing) throw e;
        failure = e;
    }
}
