package dev.graphmend.passes.rules;

import java.util.List;

/** Every rule, in code order. */
public final class Rules {
    private Rules() {}

    public static final List<Rule> ALL = List.of(
            new DataDependentBranch(), new SideEffectCall(), new ValidationGuard(),
            new ScalarExtraction(), new DynamicShapeOp(), new UntraceableCall(), new UnsupportedContextManager());

    public static Rule byCode(String code) {
        for (Rule r : ALL) if (r.info().code().equalsIgnoreCase(code)) return r;
        return null;
    }
}
