package dev.graphmend.ir.parse;

import dev.graphmend.ir.grammar.PythonLexer;
import dev.graphmend.ir.source.DecodeProblem;
import dev.graphmend.ir.source.SourceText;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.Token;

/**
 * The decoding problems CPython's {@code compile(bytes)} reports, which is how {@code import},
 * {@code py_compile} and {@code ast.parse} read a file: with UTF-8 (the default or declared), an
 * invalid byte inside a comment is never decoded, so it is no problem (only {@code python file.py}
 * rejects it). Every other problem stands.
 */
public final class CompileProblems {
    private CompileProblems() {}

    /** {@code source}'s problems but invalid UTF-8 bytes inside comments. */
    public static List<DecodeProblem> of(SourceText source) {
        List<DecodeProblem> invalid = source.invalidUtf8();
        if (invalid.isEmpty()) return source.problems();
        Set<Integer> outside = new HashSet<>(); // lines whose first invalid byte is not in a comment
        Map<Integer, int[]> comments = comments(source);
        for (DecodeProblem p : invalid) {
            if (!inComment(comments, p.line(), p.column() - 1)) outside.add(p.line());
        }
        Set<DecodeProblem> byteProblems = new HashSet<>(invalid);
        List<DecodeProblem> out = new ArrayList<>();
        for (DecodeProblem p : source.problems()) {
            // the invalid bytes are reported from the full list below, so is a summary of those past the limit
            if (!byteProblems.contains(p) && !p.message().startsWith(SUMMARY)) out.add(p);
        }
        int reported = 0;
        for (DecodeProblem p : invalid) {
            if (!outside.contains(p.line())) continue;
            if (reported++ == MAX_LINES) {
                out.add(new DecodeProblem(p.line(), p.column(), SUMMARY + (outside.size() - MAX_LINES) + " more lines not reported"));
                break;
            }
            out.add(p);
        }
        out.sort(Comparator.comparingInt(DecodeProblem::line).thenComparingInt(DecodeProblem::column));
        return List.copyOf(out);
    }

    private static final String SUMMARY = "undecodable bytes on ";
    private static final int MAX_LINES = 100;

    /**
     * The problems that keep a file from being read as text at all: {@link #of} but a NUL byte,
     * which CPython reports as a syntax error and the parser reports as one (GM000) where it is.
     */
    public static List<DecodeProblem> undecodable(SourceText source) {
        return of(source).stream().filter(p -> !p.message().equals(SourceText.NULL_BYTES)).toList();
    }

    /** The comment of each line that has one (a comment runs to the end of its line): {first column, end column}, 0-based code points. */
    private static Map<Integer, int[]> comments(SourceText source) {
        PythonLexer lexer = new PythonLexer(CharStreams.fromString(source.normalized()));
        lexer.removeErrorListeners();
        Map<Integer, int[]> out = new HashMap<>();
        for (Token t = lexer.nextToken(); t.getType() != Token.EOF; t = lexer.nextToken()) {
            if (t.getType() == PythonLexer.COMMENT) {
                int col = t.getCharPositionInLine();
                out.put(t.getLine(), new int[] {col, col + t.getText().codePointCount(0, t.getText().length())});
            }
        }
        return out;
    }

    private static boolean inComment(Map<Integer, int[]> comments, int line, int column) {
        int[] c = comments.get(line);
        return c != null && column >= c[0] && column < c[1];
    }
}
