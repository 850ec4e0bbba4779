package dev.graphmend.passes.model;

import dev.graphmend.ir.ast.Span;
import java.util.List;

/**
 * One finding in one file. The span is CPython's (1-based lines, UTF-8 byte columns); the
 * front ends convert it to what they print.
 *
 * @param root the compile root that makes this code compiled; null for GM000
 * @param fixes the legal fixes, in the order they are offered
 * @param noFixReason why no fix is offered, when the rule has fixes but none is legal here; else null
 */
public record Diagnostic(RuleInfo rule, Severity severity, Span span, String message, List<String> dynamoIds,
                         Root root, List<Fix> fixes, String noFixReason) {

    /** The function or call that puts this code under torch.compile. */
    public record Root(String path, int line, String description) {}

    /**
     * A source rewrite that removes the break; {@code safe} or {@code unsafe} (docs/rules/README.md).
     * {@code edits} is null while the fix is only described: an analysis says which legal fixes
     * exist, and the edits are built on request ({@code Findings.fixesFor}).
     */
    public record Fix(String title, Safety safety, List<Edit> edits, String note) {
        public boolean hasEdits() { return edits != null; }
    }

    /** Replace {@code span} by {@code newText}. */
    public record Edit(Span span, String newText) {}

    public String code() { return rule.code(); }
}
