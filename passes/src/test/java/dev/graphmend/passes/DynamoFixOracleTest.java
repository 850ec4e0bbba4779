package dev.graphmend.passes;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Dynamo oracle for fixes (issue 5): {@code tools/fix_oracle.py} runs every case of every
 * before/after pair in src/test/resources/fixes under real TorchDynamo: breaks before and after,
 * {@code fullgraph=True} where no break is left, outputs bitwise equal on at least three inputs
 * that take every branch, raises preserved, side effects equal. The after-files are exactly what
 * our fix-all produces ({@link FixFixtureTest} checks that), so this judges our rewrites. Fails
 * loudly when torch cannot be installed: a skipped oracle is never a pass.
 */
@Tag("oracle")
class DynamoFixOracleTest {
    private static final Path ROOT = Paths.get("..").toAbsolutePath().normalize();

    @Test
    void everyFixRemovesItsBreaksAndKeepsOutputs() throws Exception {
        String python = torchPython();
        Path stderr = Files.createTempFile("fix-oracle", ".err");
        Process p = new ProcessBuilder(python, ROOT.resolve("tools/fix_oracle.py").toString(), "--json",
                FixFixtureTest.DIR.toAbsolutePath().toString()).redirectError(stderr.toFile()).start();
        String json = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            fail("ORACLE NOT RUN: fix oracle: tools/fix_oracle.py did not finish in 30 minutes");
        }
        JsonObject result;
        try {
            result = JsonParser.parseString(json).getAsJsonObject();
        } catch (RuntimeException e) {
            fail("ORACLE NOT RUN: fix oracle: no JSON from tools/fix_oracle.py (exit " + p.exitValue() + "):\n" + tail(Files.readString(stderr)));
            return;
        }
        StringBuilder report = new StringBuilder("Fix oracle: torch " + result.get("torch").getAsString() + "\n");
        int cases = 0, fixed = 0, declined = 0, breaksBefore = 0, breaksAfter = 0, identical = 0, fullgraph = 0;
        List<String> failures = new ArrayList<>();
        for (JsonElement fe : result.getAsJsonArray("files")) {
            JsonObject f = fe.getAsJsonObject();
            String name = Paths.get(f.get("original").getAsString()).getFileName().toString();
            if (f.has("error") && !f.get("error").isJsonNull()) failures.add(name + ": " + f.get("error").getAsString());
            for (JsonElement ce : f.getAsJsonArray("cases")) {
                JsonObject c = ce.getAsJsonObject();
                cases++;
                boolean isDeclined = c.get("declined").getAsBoolean();
                if (isDeclined) declined++;
                else fixed++;
                breaksBefore += intOr(c, "breaks_before");
                breaksAfter += intOr(c, "breaks_after");
                if (c.has("outputs_identical") && !c.get("outputs_identical").isJsonNull() && c.get("outputs_identical").getAsBoolean()) identical++;
                if (c.has("fullgraph_ok") && !c.get("fullgraph_ok").isJsonNull() && c.get("fullgraph_ok").getAsBoolean()) fullgraph++;
                String status = c.get("status").getAsString();
                if (!status.equals("fixed") && !status.equals("declined")) {
                    failures.add(name + " " + c.get("name").getAsString() + ": " + status + " " + c.get("failures")
                            + (c.has("error") && !c.get("error").isJsonNull() ? " error " + c.get("error").getAsString() : ""));
                }
            }
        }
        report.append(String.format("cases %d (fixed %d, declined %d); breaks before %d, after %d; outputs identical in %d; "
                + "fullgraph=True ok in %d%n", cases, fixed, declined, breaksBefore, breaksAfter, identical, fullgraph));
        report.append("failures (").append(failures.size()).append("):\n");
        for (String s : failures) report.append("  ").append(s).append('\n');
        Path out = Paths.get("target/oracle/fix-oracle-report.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.print(report);
        assertTrue(cases >= 120, "the fix oracle judged only " + cases + " cases");
        assertTrue(failures.isEmpty(), failures.size() + " fix case(s) failed under Dynamo; see target/oracle/fix-oracle-report.txt");
    }

    private static int intOr(JsonObject o, String k) {
        return o.has(k) && !o.get(k).isJsonNull() ? o.get(k).getAsInt() : 0;
    }

    /** The torch environment's python, installing it on first use; failing loudly ("NOT RUN") when that is impossible. */
    static String torchPython() throws IOException, InterruptedException {
        Path log = Files.createTempFile("torch-env", ".log");
        Process p = new ProcessBuilder("bash", ROOT.resolve("scripts/torch-env").toString()).redirectError(log.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(30, TimeUnit.MINUTES) || p.exitValue() != 0 || out.isEmpty()) {
            fail("ORACLE NOT RUN: Dynamo oracles (real TorchDynamo on the fixtures and the fixes): torch could not be installed "
                    + "by scripts/torch-env. To run it: python3 with venv and pip, and PyPI reachable (or a ready environment in "
                    + "GRAPHMEND_TORCH_ENV). (Counted as a failure, never as a pass.)\n" + tail(Files.readString(log)));
        }
        String[] lines = out.split("\n");
        return lines[lines.length - 1].strip();
    }

    private static String tail(String s) {
        return s.length() <= 3000 ? s : "…" + s.substring(s.length() - 3000);
    }
}
