package dev.graphmend.ir.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.ir.source.DecodeProblem;
import dev.graphmend.ir.source.SourceText;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Invalid UTF-8 inside comments is what CPython's {@code compile(bytes)} (import, py_compile,
 * ast.parse) accepts; anywhere else it is an error (the inputs are CPython 3.13's verdicts:
 * {@code compile(b"# \xe9\nx = 1\n", "f", "exec")} passes, {@code compile(b"x = '\xe9'\n", ...)}
 * raises SyntaxError).
 */
class CompileProblemsTest {
    private static List<DecodeProblem> problems(byte[] bytes) {
        return CompileProblems.of(SourceText.decode(bytes));
    }

    private static byte[] bytes(String latin1) {
        return latin1.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void invalidBytesInCommentsAreNoProblem() {
        assertEquals(List.of(), problems(bytes("# caf\u00e9\nx = 1  # \u00ff\u00fe\n\r\n# \u00e9\r")));
        assertEquals(List.of(), problems(bytes("\u00ef\u00bb\u00bf# \u00e9\nx = 1\n"))); // with a BOM
        assertEquals(List.of(), problems(bytes("# -*- coding: utf-8 -*-\n# \u00e9\n")));
        var parsed = new PythonSourceParser().parse(bytes("x = 1  # \u00e9\n"));
        assertEquals(List.of(), parsed.errors());
    }

    @Test
    void invalidBytesElsewhereStay() {
        List<DecodeProblem> inString = problems(bytes("# ok \u00e9\nx = '\u00e9'\n"));
        assertEquals(1, inString.size(), inString.toString());
        assertEquals(2, inString.get(0).line());
        assertEquals(1, problems(bytes("x\u00e9 = 1\n")).size());
        // a '#' inside a string is no comment
        assertEquals(1, problems(bytes("x = '# \u00e9'\n")).size());
        // another declared encoding decodes the whole file: its errors stand everywhere
        assertEquals(1, problems(bytes("# -*- coding: ascii -*-\n# \u00e9\n")).size());
        assertTrue(problems(bytes("x = 1\u0000\n")).get(0).message().contains("null bytes"));
    }

    @Test
    void everyLineCountsPastTheReportedOnes() {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        for (int i = 0; i < 150; i++) text.writeBytes(bytes("# line \u00e9\n"));
        assertEquals(List.of(), problems(text.toByteArray()));
        text.writeBytes(bytes("x = '\u00e9'\n")); // line 151: past the 100 lines the decoder reports
        List<DecodeProblem> late = problems(text.toByteArray());
        assertEquals(1, late.size(), late.toString());
        assertEquals(151, late.get(0).line());
    }
}
