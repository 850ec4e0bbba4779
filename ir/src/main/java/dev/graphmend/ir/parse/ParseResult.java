package dev.graphmend.ir.parse;

import dev.graphmend.ir.ast.Module;
import dev.graphmend.ir.source.SourceText;
import java.util.List;

/**
 * What parsing a file yields: always a module (possibly partial when the text has errors)
 * plus the syntax errors, in source order. An empty error list means CPython would accept it.
 */
public record ParseResult(SourceText source, Module module, List<SyntaxError> errors) {
    public ParseResult {
        errors = List.copyOf(errors);
    }

    public boolean hasErrors() {
        return !errors.isEmpty();
    }
}
