package dev.graphmend.passes.analysis;

import java.util.Set;

/**
 * What the analysis knows of the torch API: which calls produce tensors, which produce values
 * Dynamo treats as static, which tensor methods read data back to Python. Names are qualified
 * ({@code torch.nn.functional.relu}) as {@link dev.graphmend.ir.symbols.QualifiedNames} gives them.
 */
public final class TorchApi {
    private TorchApi() {}

    /** torch functions whose result is not a tensor (checks, dtype/device helpers, contexts). */
    private static final Set<String> TORCH_NON_TENSOR = Set.of(
            "is_tensor", "is_storage", "is_floating_point", "is_complex", "is_nonzero", "numel", "get_default_dtype",
            "is_grad_enabled", "is_inference_mode_enabled", "finfo", "iinfo", "device", "dtype", "Size",
            "no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "autocast", "get_device", "typename",
            "is_autocast_enabled", "manual_seed", "compile", "jit", "Generator", "Stream", "Event", "set_printoptions",
            "broadcast_shapes", "result_type", "promote_types", "can_cast", "is_same_size", "equal", "sym_int",
            "sym_float", "sym_max", "sym_min", "use_deterministic_algorithms", "get_num_threads", "cuda", "backends");

    /** Tensor methods and attributes whose result Dynamo knows statically (shape metadata). */
    public static final Set<String> STATIC_TENSOR_ATTRIBUTES = Set.of(
            "shape", "dtype", "device", "ndim", "is_cuda", "is_sparse", "is_quantized", "is_meta", "layout",
            "requires_grad", "is_leaf", "names", "itemsize", "nbytes");

    public static final Set<String> STATIC_TENSOR_METHODS = Set.of(
            "size", "dim", "ndimension", "numel", "nelement", "stride", "is_contiguous", "is_floating_point",
            "is_complex", "element_size", "get_device", "data_ptr", "storage_offset", "type", "is_pinned",
            "is_signed", "has_names", "untyped_storage", "dim_order");

    /** Tensor methods whose result is a bool tensor. */
    private static final Set<String> BOOL_TENSOR_METHODS = Set.of(
            "bool", "eq", "ne", "gt", "lt", "ge", "le", "greater", "less", "greater_equal", "less_equal",
            "not_equal", "logical_and", "logical_or", "logical_not", "logical_xor", "isnan", "isinf", "isfinite",
            "isposinf", "isneginf", "isreal", "isclose", "any", "all", "signbit", "__eq__", "__ne__");

    private static final Set<String> BOOL_TENSOR_FUNCTIONS = Set.of(
            "eq", "ne", "gt", "lt", "ge", "le", "greater", "less", "greater_equal", "less_equal", "not_equal",
            "logical_and", "logical_or", "logical_not", "logical_xor", "isnan", "isinf", "isfinite", "isposinf",
            "isneginf", "isreal", "isclose", "any", "all", "isin", "signbit", "ones_like_bool");

    /** Tensor methods that return several tensors. */
    private static final Set<String> SEQUENCE_TENSOR_METHODS = Set.of(
            "chunk", "split", "unbind", "tensor_split", "split_with_sizes", "sort", "topk", "max_dim", "min_dim",
            "kthvalue", "median_dim", "mode", "unique_consecutive_pair");

    private static final Set<String> SEQUENCE_TENSOR_FUNCTIONS = Set.of(
            "chunk", "split", "unbind", "tensor_split", "meshgrid", "broadcast_tensors", "sort", "topk",
            "split_with_sizes", "vsplit", "hsplit", "dsplit", "atleast_1d_seq", "lstsq", "svd", "qr", "eig");

    /**
     * Attributes and methods only tensors (and arrays) have: a value used through one of them is a
     * tensor there. Names that lists, dicts, caches or configs also have ({@code size}, {@code to},
     * {@code values}, {@code sort}, {@code float}, …) are left out.
     */
    private static final Set<String> TENSOR_ONLY_ATTRIBUTES = Set.of(
            "shape", "dtype", "ndim", "is_cuda", "numel", "dim", "nonzero", "sum", "mean", "any", "all", "flatten",
            "long", "bool", "view", "reshape", "unsqueeze", "squeeze", "transpose", "permute", "expand", "expand_as",
            "masked_fill", "masked_fill_", "cumsum", "argmax", "argmin", "eq", "ne", "gt", "lt", "ge", "le", "clone",
            "detach", "contiguous", "item", "tolist", "type_as", "new_zeros", "new_ones", "new_full", "new_empty",
            "softmax", "sigmoid", "index_select", "gather", "narrow", "unbind", "masked_select", "unique", "prod",
            "isnan", "isinf", "logical_not", "logical_and", "logical_or", "repeat_interleave", "view_as",
            "reshape_as", "matmul", "bmm", "mT");

    /** Whether {@code x.attr} (or {@code x.attr(...)}) tells that {@code x} is a tensor. */
    public static boolean isTensorOnlyAttribute(String attr) {
        return TENSOR_ONLY_ATTRIBUTES.contains(attr);
    }

    /**
     * torch functions returning a tensor whose first argument need not be one: built from Python
     * data or sizes, or from a list of tensors ({@code cat}), or an equation string ({@code einsum}).
     */
    private static final Set<String> FROM_DATA = Set.of(
            "tensor", "as_tensor", "asarray", "from_numpy", "zeros", "ones", "empty", "full", "rand", "randn",
            "randint", "arange", "range", "linspace", "logspace", "eye", "cat", "stack", "concat", "concatenate",
            "hstack", "vstack", "broadcast_tensors", "meshgrid", "block_diag", "cartesian_prod", "einsum");

    /** Whether {@code torch.f(x, ...)} takes a tensor as {@code x} (an op, not a constructor from Python data). */
    public static boolean takesTensorFirst(String qn) {
        if (qn == null || !qn.startsWith("torch.")) return false;
        boolean functional = qn.startsWith("torch.nn.functional.");
        if (!functional && qn.indexOf('.', 6) >= 0) return false; // torch.cuda.…, torch.nn.Linear, …
        if (FROM_DATA.contains(qn.substring(qn.lastIndexOf('.') + 1))) return false;
        ValueKind k = torchCallKind(qn);
        return k != null && k.isTensor();
    }

    /** The kind of {@code torch.…} called as a function, or null when not a torch name. */
    public static ValueKind torchCallKind(String qn) {
        if (qn == null || !(qn.equals("torch") || qn.startsWith("torch."))) return null;
        String last = qn.substring(qn.lastIndexOf('.') + 1);
        if (qn.startsWith("torch.nn.functional.")) return ValueKind.TENSOR;
        if (qn.equals("torch.nn.Parameter") || qn.equals("torch.nn.parameter.Parameter")
                || qn.equals("torch.nn.Buffer")) {
            return ValueKind.TENSOR;
        }
        if (qn.startsWith("torch.nn.") && !last.isEmpty() && Character.isUpperCase(last.charAt(0))) {
            return ValueKind.MODULE;
        }
        if (qn.startsWith("torch.compiler.") || qn.startsWith("torch._dynamo.") || qn.startsWith("torch.jit.")
                || qn.startsWith("torch.cuda.") || qn.startsWith("torch.backends.") || qn.startsWith("torch.distributed.")
                || qn.startsWith("torch.autograd.") || qn.startsWith("torch.utils.") || qn.startsWith("torch._C.")) {
            return ValueKind.UNKNOWN;
        }
        if (qn.equals("torch.tensor") || qn.equals("torch.as_tensor") || qn.equals("torch.from_numpy")) {
            return ValueKind.TENSOR;
        }
        if (TORCH_NON_TENSOR.contains(last)) return ValueKind.STATIC;
        if (qn.indexOf('.', 6) < 0 && isPythonValueGetter(last)) return ValueKind.STATIC;
        if (!last.isEmpty() && Character.isUpperCase(last.charAt(0))) {
            // torch.FloatTensor(...) and friends build tensors; other classes are not tensors
            return last.endsWith("Tensor") ? ValueKind.TENSOR : ValueKind.UNKNOWN;
        }
        if (BOOL_TENSOR_FUNCTIONS.contains(last)) return ValueKind.BOOL_TENSOR;
        if (SEQUENCE_TENSOR_FUNCTIONS.contains(last)) return ValueKind.TENSOR_SEQUENCE;
        // torch.linalg.*, torch.fft.*, torch.special.* and torch.<op>: tensors
        int depth = qn.split("\\.").length;
        if (depth == 2 || qn.startsWith("torch.linalg.") || qn.startsWith("torch.fft.")
                || qn.startsWith("torch.special.") || qn.startsWith("torch.nested.")) {
            return ValueKind.TENSOR;
        }
        return ValueKind.UNKNOWN;
    }

    /**
     * torch's top-level predicates and getters of global state ({@code torch.is_grad_enabled()},
     * {@code torch.are_deterministic_algorithms_enabled()}, {@code torch.get_default_device()}):
     * Python values, never tensors. {@code get_rng_state} is the exception (a byte tensor).
     */
    private static boolean isPythonValueGetter(String name) {
        return (name.startsWith("is_") || name.startsWith("are_") || name.startsWith("get_")) && !name.equals("get_rng_state");
    }

    /**
     * The top-level getters Dynamo evaluates while tracing (its constant-folded and handled
     * functions in torch 2.15's {@code torch/_dynamo/variables/torch.py}); {@code is_nonzero} reads
     * a tensor's value (GB0033, GM201's) and {@code get_device} takes a tensor.
     */
    private static final Set<String> GETTERS_DYNAMO_EVALUATES = Set.of("is_tensor", "is_floating_point", "is_complex",
            "is_grad_enabled", "is_inference_mode_enabled", "are_deterministic_algorithms_enabled", "get_default_dtype",
            "get_autocast_dtype", "get_autocast_gpu_dtype", "is_autocast_enabled", "is_autocast_cpu_enabled",
            "is_autocast_cache_enabled", "get_device_module", "is_nonzero", "get_device");

    /**
     * A getter of torch's global state that Dynamo puts in the graph as a call and then cannot
     * hold its Python result ({@code torch.get_default_device()}, {@code torch.is_anomaly_enabled()},
     * {@code torch.get_num_threads()}: GB0208 "torch.* op returned non-Tensor", observed on torch 2.15).
     */
    public static boolean isUntracedGetter(String qn) {
        if (qn == null || !qn.startsWith("torch.") || qn.indexOf('.', 6) >= 0) return false;
        String last = qn.substring(6);
        return isPythonValueGetter(last) && !GETTERS_DYNAMO_EVALUATES.contains(last);
    }

    /** The kind of {@code t.method(...)} for a tensor {@code t}. */
    public static ValueKind tensorMethodKind(String method) {
        if (STATIC_TENSOR_METHODS.contains(method)) return ValueKind.STATIC;
        if (method.equals("item") || method.equals("tolist") || method.equals("numpy") || method.equals("equal")
                || method.equals("__bool__") || method.equals("__int__") || method.equals("__float__")) {
            return ValueKind.STATIC; // a Python value read back (GM201 reports the read itself)
        }
        if (BOOL_TENSOR_METHODS.contains(method)) return ValueKind.BOOL_TENSOR;
        if (SEQUENCE_TENSOR_METHODS.contains(method)) return ValueKind.TENSOR_SEQUENCE;
        if (method.equals("max") || method.equals("min") || method.equals("median")) {
            return ValueKind.UNKNOWN; // a tensor, or a (values, indices) pair with dim=
        }
        if (method.equals("register_hook") || method.equals("backward") || method.equals("tolist")) return ValueKind.UNKNOWN;
        return ValueKind.TENSOR;
    }

    /** The kind of attribute {@code t.attr} for a tensor {@code t}. */
    public static ValueKind tensorAttributeKind(String attr) {
        if (STATIC_TENSOR_ATTRIBUTES.contains(attr)) return ValueKind.STATIC;
        switch (attr) {
            case "T": case "mT": case "H": case "mH": case "data": case "grad": case "real": case "imag":
                return ValueKind.TENSOR;
            default:
                return ValueKind.UNKNOWN; // a method object, or an attribute we do not model
        }
    }

    /**
     * A numpy function whose result Dynamo traces as a tensor ({@code np.lcm(a, b)},
     * {@code np.sqrt(d)}), a {@link ValueKind#NUMPY_ARRAY}: branching on it breaks, int() and sizes
     * of it trace (observed on torch 2.15 and 2.10, fixtures/GM101.py and GM201.py). Not the random
     * module (GM203), types, dtypes or the introspection helpers, which give Python values.
     */
    public static boolean isNumpyArrayFunction(String qn) {
        if (qn == null || !qn.startsWith("numpy.") || qn.indexOf('.', 6) >= 0) return false;
        String last = qn.substring(6);
        if (last.isEmpty() || !Character.isLowerCase(last.charAt(0))) return false;
        return !NUMPY_NON_ARRAY.contains(last) && !last.matches("(float|int|uint|bool|complex|str|object)[0-9]*_?");
    }

    private static final Set<String> NUMPY_NON_ARRAY = Set.of("random", "dtype", "finfo", "iinfo", "ndim", "shape",
            "isscalar", "issubdtype", "result_type", "promote_types", "can_cast", "seterr", "errstate", "set_printoptions",
            "get_printoptions", "printoptions", "load", "save", "savez", "frombuffer", "fromfile", "loadtxt", "savetxt",
            "array_repr", "array_str", "array2string", "typename", "testing", "lib", "linalg", "fft", "ma", "char",
            "polynomial", "core", "version", "show_config", "info", "source", "deprecate", "longdouble", "half", "single",
            "double", "intp", "uintp", "byte", "ubyte", "short", "ushort", "intc", "uintc", "longlong", "ulonglong",
            "cdouble", "csingle", "clongdouble", "datetime64", "timedelta64", "bytes_", "str_", "void", "generic",
            "number", "integer", "floating", "inexact", "signedinteger", "unsignedinteger", "complexfloating",
            "ndarray", "matrix", "iterable", "vectorize", "frompyfunc", "nditer", "ndindex", "ndenumerate",
            "broadcast_shapes", "get_include");

    /** Base classes that make a class an nn.Module. */
    public static boolean isModuleBase(String qn) {
        if (qn == null) return false;
        String last = qn.substring(qn.lastIndexOf('.') + 1).replaceFirst("^_+", ""); // torch's private bases: _InstanceNorm, _BatchNorm, _ConvNd
        return qn.equals("torch.nn.Module") || qn.equals("torch.nn.modules.module.Module")
                || qn.startsWith("torch.nn.") && !last.isEmpty() && Character.isUpperCase(last.charAt(0))
                        && !qn.startsWith("torch.nn.functional.") && !qn.startsWith("torch.nn.parameter.")
                        && !qn.startsWith("torch.nn.utils.") && !qn.equals("torch.nn.Parameter");
    }

    /**
     * A base class outside the workspace that is, by the naming conventions of the ecosystem,
     * an nn.Module (Hugging Face's {@code PreTrainedModel}, {@code *PreTrainedModel}).
     */
    public static boolean isConventionalModuleBase(String qn) {
        if (qn == null) return false;
        String last = qn.substring(qn.lastIndexOf('.') + 1);
        return last.equals("PreTrainedModel") || last.endsWith("PreTrainedModel") || last.equals("ModelMixin");
    }

    public static boolean isCompile(String qn) {
        return "torch.compile".equals(qn) || "torch.compiler.compile".equals(qn);
    }

    /**
     * Checks Dynamo evaluates to False while it traces: TorchScript's {@code torch.jit.is_scripting()}
     * and the tracer's {@code torch.jit.is_tracing()} / {@code torch._C._get_tracing_state()} (observed
     * on torch 2.15, fixtures/GM102.py: the branch they guard is never traced).
     */
    public static boolean isFalseWhileCompiling(String qn) {
        return "torch.jit.is_scripting".equals(qn) || "torch.jit.is_tracing".equals(qn)
                || "torch.jit._script.is_scripting".equals(qn) || "torch._C._get_tracing_state".equals(qn);
    }

    /** {@code torch.compiler.is_compiling()} and the older spellings Dynamo treats the same. */
    public static boolean isCompilingCheck(String qn) {
        if (qn == null) return false;
        return qn.equals("torch.compiler.is_compiling") || qn.equals("torch._dynamo.is_compiling")
                || qn.equals("torch._dynamo.external_utils.is_compiling") || qn.equals("torch.compiler.is_dynamo_compiling")
                || qn.endsWith(".is_torchdynamo_compiling") || qn.equals("is_torchdynamo_compiling");
    }

    /**
     * transformers' {@code is_tracing(tensor=None)}: true whenever Dynamo traces (it ORs in
     * {@code is_torchdynamo_compiling()}), whatever the argument.
     */
    public static boolean isTracingCheck(String qn) {
        return qn != null && qn.startsWith("transformers.") && qn.endsWith(".is_tracing");
    }

    public static boolean isDisableDecorator(String qn) {
        return "torch.compiler.disable".equals(qn) || "torch._dynamo.disable".equals(qn);
    }

    /**
     * {@code torch._dynamo.assume_constant_result} (also under {@code torch.compiler}): Dynamo
     * calls the function while tracing and keeps its result as a constant, so its body is not
     * traced. It only sets {@link #CONSTANT_RESULT_MARK} on the function.
     */
    public static boolean isConstantResultDecorator(String qn) {
        return "torch._dynamo.assume_constant_result".equals(qn) || "torch.compiler.assume_constant_result".equals(qn);
    }

    /** The attribute {@code assume_constant_result} sets, which Dynamo reads (transformers sets it itself). */
    public static final String CONSTANT_RESULT_MARK = "_dynamo_marked_constant";
}
