package dev.graphmend.passes.rules;

import dev.graphmend.ir.ast.Node;
import dev.graphmend.passes.model.RuleInfo;
import java.util.List;

/** Where detectors put their findings; the analyzer adds severity, root and suppression. */
public interface Reporter {
    /**
     * @param at the offending expression (its span is the diagnostic's range)
     * @param dynamoIds the Dynamo graph-break ids this site corresponds to
     */
    void report(RuleInfo rule, Node at, String message, List<String> dynamoIds);
}
