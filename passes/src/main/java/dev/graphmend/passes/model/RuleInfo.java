package dev.graphmend.passes.model;

import java.util.List;

/**
 * A rule's metadata, kept beside its detector: the code and name of docs/rules/README.md, the Dynamo
 * graph-break ids it corresponds to, its default severity, a one-line summary, and whether what it
 * reports or the fixes it offers differ between torch releases (its page says how; the front ends
 * then show which {@code torch-version} a diagnostic was judged for).
 */
public record RuleInfo(String code, String name, List<String> dynamoIds, Severity defaultSeverity, String summary,
                       boolean followsTorchVersion) {
    public RuleInfo(String code, String name, List<String> dynamoIds, Severity defaultSeverity, String summary) {
        this(code, name, dynamoIds, defaultSeverity, summary, false);
    }

    /** This metadata for a rule with {@code torch-version} gates, in its reports or its fixes. */
    public RuleInfo followingTorchVersion() {
        return new RuleInfo(code, name, dynamoIds, defaultSeverity, summary, true);
    }

    public String docsUrl() {
        return "https://github.com/graphmend/graphmend-lsp/blob/main/docs/rules/" + code + ".md";
    }
}
