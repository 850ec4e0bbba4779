package dev.graphmend.passes.rules;

import dev.graphmend.passes.model.RuleInfo;
import dev.graphmend.passes.analysis.FunctionContext;

/**
 * One graph-break rule: its metadata and its detector. A detector looks at one function of a
 * compile region at a time (the statements Dynamo traces, see
 * {@link FunctionContext#liveStatements()}) and reports each offending expression.
 */
public interface Rule {
    RuleInfo info();

    void check(FunctionContext function, Reporter out);
}
