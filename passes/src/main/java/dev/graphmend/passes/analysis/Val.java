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
 */
public record Val(ValueKind kind, ClassInfo cls, boolean input) {
    public static final Val TENSOR = new Val(ValueKind.TENSOR, null);
    public static final Val BOOL_TENSOR = new Val(ValueKind.BOOL_TENSOR, null);
    public static final Val TENSORS = new Val(ValueKind.TENSOR_SEQUENCE, null);
    public static final Val STATIC = new Val(ValueKind.STATIC, null);
    public static final Val MODULE = new Val(ValueKind.MODULE, null);
    public static final Val NONE = new Val(ValueKind.NONE, null);
    public static final Val UNKNOWN = new Val(ValueKind.UNKNOWN, null);
    public static final Val BOTTOM = new Val(ValueKind.BOTTOM, null);
    public static final Val MAYBE_TENSOR = new Val(ValueKind.MAYBE_TENSOR, null);
    public static final Val NUMPY_ARRAY = new Val(ValueKind.NUMPY_ARRAY, null);

    public Val(ValueKind kind, ClassInfo cls) {
        this(kind, cls, false);
    }

    /** This tensor as a graph input (values of other kinds are returned as they are). */
    public Val asInput() {
        return input || !(isTensor() || kind == ValueKind.TENSOR_SEQUENCE) ? this : new Val(kind, cls, true);
    }

    /** A literal's value: None is {@link #NONE} (the parser gives it as {@code PyConstant.Singleton.NONE}), any other is static. */
    public static Val ofConstant(dev.graphmend.ir.ast.Expr.Constant c) {
        return isNone(c) ? NONE : STATIC;
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
        if (r.input == in) return r;
        return in ? r.asInput() : new Val(r.kind, r.cls);
    }

    private Val joinKinds(Val o) {
        ValueKind k = kind.join(o.kind);
        if (k == kind && k == o.kind) return new Val(k, cls == o.cls ? cls : null);
        if (k == kind) return kind == ValueKind.NONE ? o : this;
        if (k == o.kind) return o.kind == ValueKind.NONE ? this : o;
        return of(k);
    }
}
