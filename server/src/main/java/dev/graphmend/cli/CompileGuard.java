package dev.graphmend.cli;

import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.PythonSourceParser;
import dev.graphmend.ir.parse.SyntaxError;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code fix}'s last check before a file is written or put in the diff: the bytes it would write,
 * parsed again whole by our parser (held to CPython's), must have no syntax error the original
 * did not have. The engine checks each round's edits; this check also covers what comes after
 * them (imports dropped, guards renumbered, line endings and encoding restored), so a bug in any
 * of those leaves the file as it was instead of writing code that does not compile.
 */
final class CompileGuard {
    private CompileGuard() {}

    /**
     * Null when {@code after} parses wherever {@code before} did; else the first new syntax error,
     * as "MESSAGE at line N", N being the original file's line (a line the rewrite wrote counts
     * as the line its change starts at).
     */
    static String newSyntaxError(byte[] before, byte[] after) {
        ParseResult old = new PythonSourceParser().parse(before), now = new PythonSourceParser().parse(after);
        // the parser's errors include the decoding problems CPython reports (CompileProblems)
        List<String> known = new ArrayList<>();
        for (SyntaxError e : old.errors()) known.add(e.message());
        for (SyntaxError e : now.errors()) {
            // one the original has too is not new (its line may have moved)
            if (!known.remove(e.message())) return at(e.message(), e.line(), old, now);
        }
        return null;
    }

    private static String at(String message, int line, ParseResult old, ParseResult now) {
        return message + " at line " + OriginalLines.ofDiff(old.source().text(), now.source().text()).original(line);
    }
}
