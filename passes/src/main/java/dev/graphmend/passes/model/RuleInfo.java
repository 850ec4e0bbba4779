package dev.graphmend.passes.model;

import java.util.List;

/**
 * A rule's metadata, kept beside its detector: the code and name of docs/rules/README.md, the Dynamo
 * graph-break ids it corresponds to, its default severity and a one-line summary.
 */
public record RuleInfo(String code, String name, List<String> dynamoIds, Severity defaultSeverity, String summary) {
    public String docsUrl() {
        return "https://github.com/graphmend/graphmend-lsp/blob/main/docs/rules/" + code + ".md";
    }
}
