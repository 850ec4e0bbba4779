package dev.graphmend.passes.analysis;

/**
 * What an expression evaluates to, as far as Dynamo's graph breaks are concerned. Only
 * {@link #TENSOR} and {@link #BOOL_TENSOR} values have data-dependent truth values; everything
 * Dynamo specialises on (shapes, sizes, dtypes, devices, config values, Python constants) is
 * {@link #STATIC}. {@link #UNKNOWN} is never reported: the detectors stay silent when unsure.
 */
public enum ValueKind {
    /** A tensor whose element type is not known to be bool. */
    TENSOR,
    /** A tensor of bools: a comparison, a mask, {@code .bool()}, {@code isnan}, … */
    BOOL_TENSOR,
    /** A tuple or list of tensors ({@code x.chunk(2)}, a module's output tuple). */
    TENSOR_SEQUENCE,
    /** A Python value Dynamo specialises on: shapes, sizes, dtypes, devices, numbers, strings, config. */
    STATIC,
    /** An nn.Module instance (calling it runs its forward). */
    MODULE,
    /** {@code self} inside a method. */
    SELF,
    /** An instance of a project class that is not an nn.Module (a cache, a config object). */
    OBJECT,
    /**
     * A parameter without annotation that defaults to {@code None}: an optional tensor, or a flag or
     * an object passed only sometimes. Not a tensor until the function uses it as one
     * ({@link dev.graphmend.passes.analysis.FunctionContext} looks at its uses); joined with a
     * tensor (`mask = mask if mask is not None else torch.ones(...)`) it is one.
     */
    MAYBE_TENSOR,
    /**
     * A numpy array or scalar computed while tracing ({@code np.lcm(a, b)}, {@code np.ceil(r)}):
     * Dynamo traces numpy through torch, so its truth value is data (branching on it breaks), while
     * {@code int()}, {@code float()} and sizes of it trace (observed on torch 2.15 and 2.10,
     * fixtures/GM101.py and fixtures/GM201.py).
     */
    NUMPY_ARRAY,
    /** No value yet: a definition still being evaluated around a loop. Joins as the identity. */
    BOTTOM,
    NONE,
    UNKNOWN;

    public boolean isTensor() {
        return this == TENSOR || this == BOOL_TENSOR;
    }

    /** Whether taking this value's truth (an {@code if}, {@code and}, {@code not}) reads data. */
    public boolean hasDataTruth() {
        return isTensor() || this == NUMPY_ARRAY;
    }

    /** The least upper bound: equal kinds stay, None joins anything (Optional), tensors join to TENSOR. */
    public ValueKind join(ValueKind o) {
        if (this == o) return this;
        if (this == BOTTOM) return o;
        if (o == BOTTOM) return this;
        if (this == NONE) return o;
        if (o == NONE) return this;
        if (isTensor() && o.isTensor()) return TENSOR;
        if (this == NUMPY_ARRAY && o.isTensor() || o == NUMPY_ARRAY && isTensor()) return TENSOR;
        if (this == MAYBE_TENSOR && o.isTensor() || o == MAYBE_TENSOR && isTensor()) return TENSOR;
        return UNKNOWN;
    }
}
