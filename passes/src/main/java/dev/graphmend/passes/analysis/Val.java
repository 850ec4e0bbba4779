package dev.graphmend.passes.analysis;

/**
 * An abstract value: its kind and, for modules and {@code self}, the workspace class it is an
 * instance of (null when that class is not in the workspace).
 *
 * @param input for a tensor (or a tuple of tensors): whether Dynamo holds it as an input of the
 *     graph it is tracing rather than computing it there: a registered buffer, a value computed
 *     before a graph break of the same function (the resume function receives it), or the result
 *     of a call that broke (it ran eagerly). Dynamo reads such a 0-d tensor's value while tracing
 *     where a size is needed, so using it as one does not break (see {@link GraphInputs}).
 * @param truth for a Python value that is one literal on every path ({@code verbose=False} left
 *     to its default, {@code flag = True}, a {@code None} passed or defaulted): its truth, which
 *     Dynamo specializes on; else null. Never from an attribute (its assignments may be missed).
 */
public record Val(ValueKind kind, ClassInfo cls, boolean input, Boolean truth) {
    public static final Val TENSOR = new Val(ValueKind.TENSOR, null);
    public static final Val BOOL_TENSOR = new Val(ValueKind.BOOL_TENSOR, null);
    public static final Val TENSORS = new Val(ValueKind.TENSOR_SEQUENCE, null);
    public static final Val STATIC = new Val(ValueKind.STATIC, null);
    public static final Val MODULE = new Val(ValueKind.MODULE, null);
    public static final Val NONE = new Val(ValueKind.NONE, null);
    /** None written as a literal (passed, a default, assigned): None on every path that reaches here. */
    public static final Val NONE_LITERAL = new Val(ValueKind.NONE, null, false, Boolean.FALSE);
    public static final Val UNKNOWN = new Val(ValueKind.UNKNOWN, null);
    public static final Val BOTTOM = new Val(ValueKind.BOTTOM, null);
    public static final Val MAYBE_TENSOR = new Val(ValueKind.MAYBE_TENSOR, null);
    public static final Val NUMPY_ARRAY = new Val(ValueKind.NUMPY_ARRAY, null);

    public Val(ValueKind kind, ClassInfo cls) {
        this(kind, cls, false, null);
    }

    public Val(ValueKind kind, ClassInfo cls, boolean input) {
        this(kind, cls, input, null);
    }

    /** This tensor as a graph input (values of other kinds are returned as they are). */
    public Val asInput() {
        return input || !(isTensor() || kind == ValueKind.TENSOR_SEQUENCE) ? this : new Val(kind, cls, true, truth);
    }

    /**
     * A literal's value: None is {@link #NONE} (the parser gives it as {@code PyConstant.Singleton.NONE}),
     * any other is static, with its truth when it is a bool, a number or a string.
     */
    public static Val ofConstant(dev.graphmend.ir.ast.Expr.Constant c) {
        if (isNone(c)) return NONE_LITERAL;
        Object o = c.value();
        Boolean t = o instanceof Boolean b ? b
                : o instanceof java.math.BigInteger bi ? (Boolean) (bi.signum() != 0)
                : o instanceof Number n ? (Boolean) (n.doubleValue() != 0)
                : o instanceof String str ? (Boolean) !str.isEmpty() : null;
        return t == null ? STATIC : new Val(ValueKind.STATIC, null, false, t);
    }

    /** A copy without the truth: for values read from facts that may miss an assignment (an attribute's). */
    public Val withoutTruth() {
        return truth == null ? this : new Val(kind, cls, input, null);
    }

    /** Whether an expression is the literal None. */
    public static boolean isNone(dev.graphmend.ir.ast.Expr e) {
        return e instanceof dev.graphmend.ir.ast.Expr.Constant c
                && (c.value() == null || c.value() == dev.graphmend.ir.ast.PyConstant.Singleton.NONE);
    }

    public static Val of(ValueKind k) {
        switch (k) {
            case TENSOR: return TENSOR;
            case BOOL_TENSOR: return BOOL_TENSOR;
            case TENSOR_SEQUENCE: return TENSORS;
            case STATIC: return STATIC;
            case MODULE: return MODULE;
            case NONE: return NONE;
            case MAYBE_TENSOR: return MAYBE_TENSOR;
            case NUMPY_ARRAY: return NUMPY_ARRAY;
            default: return UNKNOWN;
        }
    }

    public static Val module(ClassInfo c) { return new Val(ValueKind.MODULE, c); }

    public static Val self(ClassInfo c) { return new Val(ValueKind.SELF, c); }

    public static Val object(ClassInfo c) { return new Val(ValueKind.OBJECT, c); }

    public boolean isBottom() { return kind == ValueKind.BOTTOM; }

    public boolean isTensor() { return kind.isTensor(); }

    public boolean hasDataTruth() { return kind.hasDataTruth(); }

    /** The least upper bound; a graph input only when every side that is not None is one. */
    public Val join(Val o) {
        if (o == null || this.equals(o)) return this;
        if (isBottom()) return o;
        if (o.isBottom()) return this;
        Val r = joinKinds(o);
        boolean in = (input || kind == ValueKind.NONE) && (o.input || o.kind == ValueKind.NONE);
        if (r.input != in) r = in ? r.asInput() : new Val(r.kind, r.cls, false, r.truth);
        // a literal's truth survives only where every side has that truth (a literal None's is false)
        boolean literal = r.kind == ValueKind.STATIC || r.kind == ValueKind.NONE;
        Boolean t = literal && java.util.Objects.equals(truth, o.truth) ? truth : null;
        return java.util.Objects.equals(t, r.truth) ? r : new Val(r.kind, r.cls, r.input, t);
    }

    private Val joinKinds(Val o) {
        ValueKind k = kind.join(o.kind);
        if (k == kind && k == o.kind) return new Val(k, cls == o.cls ? cls : null);
        if (k == kind) return kind == ValueKind.NONE ? o : this;
        if (k == o.kind) return o.kind == ValueKind.NONE ? this : o;
        return of(k);
    }
}
