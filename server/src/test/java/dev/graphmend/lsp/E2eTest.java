package dev.graphmend.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The end-to-end check: {@code src/test/e2e/run.sh} drives the server with vscode-jsonrpc (the
 * library VS Code's client is built on) over stdio: open examples/modeling_tiny_bert.py,
 * diagnostics, a quick fix applied (a real fix when one exists, else "Disable GMxxx for this
 * line") and the diagnostic gone, fix-all, a configuration change re-published, shutdown/exit.
 *
 * <p>Under {@code mvn test} the server runs from the test class path ({@code graphmend lsp}
 * through {@code dev.graphmend.cli.Main}); the {@code package} phase runs this test again with
 * {@code -Dgraphmend.jar} set, against the shaded jar ({@code java -jar graphmend.jar lsp}).
 * Missing node or npm fails the test: it does not skip.
 */
@Timeout(300)
class E2eTest {
    @Test
    void vscodeJsonrpcClientDrivesTheServer() throws Exception {
        Path script = Path.of("src/test/e2e/run.sh").toAbsolutePath();
        List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
        String java = ProcessHandle.current().info().command().orElse("java");
        String jar = System.getProperty("graphmend.jar");
        if (jar != null && !jar.isBlank()) {
            cmd.addAll(List.of(java, "-jar", jar, "lsp"));
        } else {
            cmd.addAll(List.of(java, "-cp", System.getProperty("java.class.path"), "dev.graphmend.cli.Main", "lsp"));
        }
        Path log = Files.createTempFile("graphmend-e2e", ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean done = p.waitFor(240, TimeUnit.SECONDS);
        if (!done) p.destroyForcibly();
        String out = Files.readString(log, StandardCharsets.UTF_8);
        Files.deleteIfExists(log);
        assertEquals(0, done ? p.exitValue() : -1, "end-to-end run failed:\n" + out);
    }
}
