package dev.graphmend.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The arguments of {@code graphmend lsp}: --stdio (what clients pass) and --debounce-ms N; anything else is a usage error. */
@Timeout(30)
class LspMainTest {
    private static int run(List<String> args, ByteArrayOutputStream err) {
        PrintStream stdout = System.out;
        try {
            return LspMain.run(args, new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream(),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
        } finally {
            System.setOut(stdout); // run() points System.out at stderr
        }
    }

    @Test
    void unknownArgumentsAreUsageErrors() {
        for (List<String> args : List.of(List.of("--bogus"), List.of("--debounce-ms"), List.of("--debounce-ms", "soon"),
                List.of("--debounce-ms", "-5"))) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            assertEquals(2, run(args, err), args.toString());
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("usage: graphmend lsp"), err.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void debounceAndStdioAreAccepted() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // no input: the client is gone at once, so the server stops; what matters is that it started
        assertNotEquals(2, run(List.of("--stdio", "--debounce-ms", "40"), err), err.toString(StandardCharsets.UTF_8));
    }
}
