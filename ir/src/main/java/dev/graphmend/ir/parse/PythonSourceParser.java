package dev.graphmend.ir.parse;

import dev.graphmend.ir.ast.Module;
import dev.graphmend.ir.source.SourceText;
import java.util.List;

/**
 * Parses Python source into a CPython-shaped AST. Never throws: any bytes in, a module plus
 * syntax errors out. One instance reuses its lexer and parser (and ANTLR's shared DFA cache);
 * it is not thread-safe, so use one per thread.
 */
public final class PythonSourceParser {
    public ParseResult parse(byte[] bytes) {
        return parse(SourceText.decode(bytes));
    }

    public ParseResult parse(String text) {
        return parse(SourceText.of(text));
    }

    public ParseResult parse(SourceText source) {
        // STUB: replaced by the real parser (work in progress).
        return new ParseResult(source, new Module(List.of(), List.of()), List.of(new SyntaxError(1, 1, "parser not implemented")));
    }
}
