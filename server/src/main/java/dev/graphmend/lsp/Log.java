package dev.graphmend.lsp;

import java.io.PrintStream;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import org.eclipse.lsp4j.LogTraceParams;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.TraceValue;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * The server's log: every line goes to stderr (stdout is the protocol) and, once a client is
 * connected, to {@code window/logMessage}; {@code $/logTrace} carries timings when the client set
 * a trace level other than {@code off} ({@code $/setTrace}).
 */
final class Log {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    private final PrintStream err;
    private volatile LanguageClient client;
    private volatile String trace = TraceValue.Off;

    Log(PrintStream err) {
        this.err = err;
    }

    void connect(LanguageClient c) { client = c; }

    void setTrace(String value) { trace = value == null ? TraceValue.Off : value; }

    String trace() { return trace; }

    void error(String msg) { log(MessageType.Error, msg); }

    void warn(String msg) { log(MessageType.Warning, msg); }

    void info(String msg) { log(MessageType.Info, msg); }

    void log(MessageType type, String msg) {
        err.println("[graphmend " + LocalTime.now().format(TIME) + " " + type.name().toLowerCase() + "] " + msg);
        LanguageClient c = client;
        if (c != null) {
            try {
                c.logMessage(new MessageParams(type, msg));
            } catch (RuntimeException e) {
                // the client is gone; stderr has it
            }
        }
    }

    /** A {@code $/logTrace} line when tracing is on; {@code verbose} only at the verbose level. */
    void trace(String msg, String verbose) {
        LanguageClient c = client;
        String t = trace;
        if (c == null || TraceValue.Off.equals(t)) return;
        try {
            c.logTrace(new LogTraceParams(msg, TraceValue.Verbose.equals(t) ? verbose : null));
        } catch (RuntimeException e) {
            // ignore
        }
    }
}
