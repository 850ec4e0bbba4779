package dev.graphmend.passes.fix;

import java.util.List;

/** Every transformation, in the order their fixes are offered for a rule. */
public final class Transformations {
    private Transformations() {}

    public static final List<Transformation> ALL = List.of(
            new WhereRewrite(), new CondRewrite(), new InGraphPrint(), new InGraphLogging(), new InGraphWarning(), new DeferSideEffect(), new SkipWhileCompiling(), new AssertAsyncLowering(),
            new TensorCheckLowering());

    public static List<Transformation> forCode(String code) {
        return ALL.stream().filter(t -> t.code().equals(code)).toList();
    }
}
