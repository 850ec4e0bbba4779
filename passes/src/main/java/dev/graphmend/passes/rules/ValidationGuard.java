package dev.graphmend.passes.rules;

import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.model.RuleInfo;
import dev.graphmend.passes.model.Severity;
import dev.graphmend.passes.analysis.FunctionContext;
import java.util.List;

/**
 * GM103: {@code if <tensor condition>: raise E("...")}. Dynamo breaks at the {@code if} (GB0170)
 * to find out whether to raise; the check can run on the device instead.
 */
public final class ValidationGuard implements Rule {
    static final RuleInfo INFO = new RuleInfo("GM103", "validation-guard", List.of("GB0170"), Severity.WARNING,
            "A raise guarded by a tensor condition");

    @Override public RuleInfo info() { return INFO; }

    @Override
    public void check(FunctionContext f, Reporter out) {
        for (Stmt s : f.liveStatements()) {
            if (s instanceof Stmt.If i && Conditions.isGuard(i) && Conditions.isDataDependent(f, i.test())) {
                out.report(INFO, i.test(), "Validation guard on tensor values: Dynamo must read the tensor to decide whether "
                        + "to raise, so the graph breaks at this `if` (GB0170). The check can be lowered to "
                        + "torch._assert_async, which runs inside the graph." + Conditions.onlyWhen(f, i.test()), INFO.dynamoIds());
            }
        }
    }
}
