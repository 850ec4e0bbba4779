"""GM102 fix, in-graph print (torch 2.15): `print(...)` becomes `T._higher_order_ops.print(fmt,
name=value, ...)`, torch's effectful print operator, which Dynamo puts into the graph instead of
breaking, in program order, also in frames it inlines (helpers, submodules' forward). The format
string is spelled so that the text is what `print` writes: string literals go into it with braces
doubled and quotes escaped, every other argument is a `{name!s}` field (`print` writes `str(arg)`),
an f-string keeps its conversions and format specs, and a literal `sep`/`end` is spelled into it.
The arguments are tensors, numbers, strings, booleans and None (what the operator passes through
the graph); other values decline (GM102_print_hop_declines.py). Observed on torch 2.15.0 (CPU):
the same text under the eager, aot_eager and inductor backends, with `fullgraph=True` and
`dynamic=True`; a tensor that requires grad prints without its `grad_fn=<...>` under aot_eager
and inductor (the graph hands the operator plain tensors), so these cases run without grad."""
import torch
import torch.nn as nn


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_print_tensor": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(3, 2, seed=2),),
        lambda: (torch.zeros(1, 4),),
    ],
    "case_print_sep_and_end": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2) * 5,),
        lambda: (torch.ones(2),),
    ],
    "case_print_before_inplace": [
        lambda: (torch.zeros(2, 2),),
        lambda: (_randn(2, 2, seed=1),),
        lambda: (torch.arange(4.0),),
    ],
    "case_print_fstring_with_spec": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(4, 3, seed=2),),
        lambda: (torch.full((1, 3), 2.5),),
    ],
    "case_print_braces_and_quotes": [
        lambda: (_randn(2, seed=1),),
        lambda: (_randn(3, seed=2),),
        lambda: (torch.zeros(1),),
    ],
    "case_print_scalars": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(1, 5, seed=2),),
        lambda: (torch.ones(3, 1),),
    ],
    "case_print_int_parameter": [
        lambda: (_randn(2, 3, seed=1), 0),
        lambda: (_randn(2, 3, seed=2), 3),
        lambda: (_randn(1, 3, seed=3), 11),
    ],
    "case_print_in_helper": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 2, seed=2),),
        lambda: (torch.full((2,), -1.0),),
    ],
    "case_print_the_same_name_twice": [
        lambda: (_randn(2, seed=1),),
        lambda: (_randn(3, seed=2),),
        lambda: (torch.ones(1),),
    ],
}
ARGS = {
    "CaseSubmodulePrints": lambda: (_randn(2, 4, seed=5),),
}


@torch.compile
def case_print_tensor(hidden_states):
    """A label and a tensor."""
    hidden_states = hidden_states * 2
    print("hidden_states", hidden_states)  # expect-fix: GM102
    return hidden_states + 1


@torch.compile
def case_print_sep_and_end(x):
    """Literal `sep` and an `end` that ends the line are spelled into the format."""
    s = x.sum()
    print("sum", s, "max", x.max(), sep=" | ", end=" <\n")  # expect-fix: GM102
    return x - s


@torch.compile
def case_print_before_inplace(x):
    """The value printed is the one at the print, not after the in-place update that follows."""
    h = x + 1
    print("before update", h)  # expect-fix: GM102
    h.add_(10)
    return h


@torch.compile
def case_print_fstring_with_spec(x):
    """An f-string: fields keep their format spec and conversion; a 0-d tensor formats as a number."""
    m = x.mean()
    print(f"mean={m:.4f} rows={x.shape[0]} first={x[0]!r}")  # expect-fix: GM102
    return x * m


@torch.compile
def case_print_braces_and_quotes(x):
    """Braces and quotes in literals are text, not fields."""
    print("{not a field}", 'it\'s "quoted"', x, "\ttab")  # expect-fix: GM102
    return x.abs()


@torch.compile
def case_print_scalars(x):
    """Numbers, None, booleans and sizes read from the tensor."""
    print("step", 3, 0.5, None, True, x.dim(), x.size(1), len(x), x.dtype)  # expect-fix: GM102
    return x.relu()


@torch.compile
def case_print_int_parameter(x, layer_idx: int):
    """A parameter annotated int."""
    print("layer", layer_idx, "done")  # expect-fix: GM102
    return x + layer_idx


@torch.compile
def case_print_in_helper(x):
    """A print in a helper that Dynamo inlines (deferral would drop it; the in-graph print keeps it)."""
    return _report_and_scale(x) + 1


def _report_and_scale(x):
    """Helper of case_print_in_helper."""
    print("scaling", x)  # expect-fix: GM102
    return x * 0.5


@torch.compile
def case_print_the_same_name_twice(x):
    """One field per name: a name printed twice is passed once."""
    y = x.exp()
    print(y, "and again", y)  # expect-fix: GM102
    return y


class _Scale(nn.Module):
    """Submodule of CaseSubmodulePrints, inlined into its forward."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.full((4,), 0.5), requires_grad=False)

    def forward(self, x):
        y = x * self.weight
        print("scaled", y.sum())  # expect-fix: GM102
        return y


class CaseSubmodulePrints(nn.Module):
    """The print sits in a submodule's forward."""

    def __init__(self):
        super().__init__()
        self.scale = _Scale()

    def forward(self, x):
        return self.scale(x) + 1
