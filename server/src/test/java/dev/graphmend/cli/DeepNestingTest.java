package dev.graphmend.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The verdict on deeply nested text is a function of the text (docs/architecture.md, "Nesting
 * limits and the stack"): a plain {@code java} (1 MB thread stacks, no {@code -Xss}) and one that
 * only interprets ({@code -Xint}: a cold JVM's frames, the largest there are) give the same JSON
 * for the deepest texts the limits admit and for texts past them, and neither crashes.
 */
class DeepNestingTest {
    private static final String COMPILED = "import torch\n\n@torch.compile\ndef f(x):\n";

    /** Each text and what the limits say of it: the GM000 message expected, or null (it parses). */
    private static Map<String, String[]> texts() {
        Map<String, String[]> t = new LinkedHashMap<>();
        // the reproducer: a 5,000-link chain CPython accepts, analysed (its print is a GM102)
        t.put("attr5000.py", new String[] {COMPILED + "    print(x" + ".b".repeat(5000) + ")\n    return x\n", null});
        t.put("attr9994.py", new String[] {COMPILED + "    y = x" + ".b".repeat(9994) + "\n    return y\n", null});
        t.put("attr9995.py", new String[] {COMPILED + "    print(x" + ".b".repeat(9995) + ")\n    return x\n", "too deeply nested"});
        t.put("unary9994.py", new String[] {COMPILED + "    y = " + "-".repeat(9994) + "x\n    print(y)\n    return y\n", null});
        t.put("pow9994.py", new String[] {"y = a" + "**a".repeat(9994) + "\n", null});
        t.put("lambda4997.py", new String[] {"f = " + "lambda: ".repeat(4997) + "a\n", null});
        t.put("ifexp9990.py", new String[] {"y = " + "a if a else ".repeat(9990) + "a\n", null});
        t.put("calls1M.py", new String[] {"y = f" + "()".repeat(1_000_000) + "\n", "too deeply nested"});
        t.put("paren200.py", new String[] {"y = " + "(".repeat(200) + "a" + ")".repeat(200) + "\n", null});
        t.put("paren201.py", new String[] {"y = " + "(".repeat(201) + "a" + ")".repeat(201) + "\nz = 1\n", "too many nested parentheses"});
        t.put("blocks99.py", new String[] {blocks(99), null});
        t.put("blocks100.py", new String[] {blocks(100), "too many levels of indentation"});
        t.put("blocks5000.py", new String[] {blocks(5000), "too many levels of indentation"});
        // flat chains are not nesting: a BoolOp's and a Compare's operands are siblings
        t.put("and20000.py", new String[] {"y = a" + " and a".repeat(20_000) + "\n", null});
        // a binary operator's operands are siblings: two chains joined are as deep as the deeper
        t.put("joined.py", new String[] {"y = x" + ".b".repeat(8_000) + " & x" + ".b".repeat(8_000) + "\n", null});
        t.put("ifexp-and4990.py", new String[] {"y = " + "a and a if a and a else ".repeat(4990) + "a\n", null});
        // nesting that hides behind flat operators still counts: the parser would recurse 200,000 deep
        t.put("ifexp-and200000.py", new String[] {"y = " + "a and a if a and a else ".repeat(200_000) + "a\n", "too deeply nested"});
        t.put("negatives30000.py", new String[] {"X = [" + "-1.5, ".repeat(30_000) + "]\n", null});
        return t;
    }

    /** {@code levels} nested {@code if} blocks, then a statement back at the module level. */
    private static String blocks(int levels) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < levels; i++) sb.append(" ".repeat(i)).append("if a:\n");
        return sb.append(" ".repeat(levels)).append("pass\nprint(1)\n").toString();
    }

    @Test
    void theVerdictIsTheTextsWhateverTheStackAndTheJit(@TempDir Path dir) throws Exception {
        Map<String, String[]> texts = texts();
        List<String> args = new ArrayList<>(List.of("check", "--output-format", "json", "--exit-zero", "--no-config"));
        for (Map.Entry<String, String[]> e : texts.entrySet()) {
            Files.writeString(dir.resolve(e.getKey()), e.getValue()[0], StandardCharsets.UTF_8);
            args.add(e.getKey());
        }
        ChildCli.Result plain = ChildCli.runWithJvm(List.of(), dir, args.toArray(String[]::new));
        ChildCli.Result cold = ChildCli.runWithJvm(List.of("-Xint"), dir, args.toArray(String[]::new));
        for (ChildCli.Result r : List.of(plain, cold)) {
            assertEquals(0, r.code(), r.err());
            assertFalse(r.err().contains("StackOverflowError") || r.err().contains("internal error"), r.err());
        }
        Map<String, JsonArray> byFile = diagnostics(plain.outText());
        assertEquals(byFile, diagnostics(cold.outText()), "the same text, another stack and JIT state: another verdict");
        for (Map.Entry<String, String[]> e : texts.entrySet()) {
            JsonArray found = byFile.get(e.getKey());
            String expected = e.getValue()[1];
            List<String> syntax = new ArrayList<>();
            for (JsonElement d : found) {
                JsonObject o = d.getAsJsonObject();
                if (o.get("code").getAsString().equals("GM000")) syntax.add(o.get("message").getAsString());
            }
            if (expected == null) {
                assertTrue(syntax.isEmpty(), e.getKey() + " parses, but: " + syntax);
            } else {
                assertEquals(1, syntax.size(), e.getKey() + ": one error, its consequences dropped: " + syntax);
                assertTrue(syntax.get(0).contains(expected), e.getKey() + ": " + syntax);
            }
        }
        // what the limits admit is analysed as usual
        assertTrue(codes(byFile.get("attr5000.py")).contains("GM102"), byFile.get("attr5000.py").toString());
        assertTrue(codes(byFile.get("unary9994.py")).contains("GM102"), byFile.get("unary9994.py").toString());
        // the statement after a line past a limit is still there
        assertTrue(byFile.get("blocks5000.py").size() == 1, byFile.get("blocks5000.py").toString());
    }

    private static Map<String, JsonArray> diagnostics(String json) {
        Map<String, JsonArray> out = new LinkedHashMap<>();
        for (JsonElement f : JsonParser.parseString(json).getAsJsonObject().getAsJsonArray("files")) {
            JsonObject o = f.getAsJsonObject();
            out.put(o.get("path").getAsString(), o.getAsJsonArray("diagnostics"));
        }
        return out;
    }

    private static List<String> codes(JsonArray diagnostics) {
        List<String> codes = new ArrayList<>();
        for (JsonElement d : diagnostics) codes.add(d.getAsJsonObject().get("code").getAsString());
        return codes;
    }
}
