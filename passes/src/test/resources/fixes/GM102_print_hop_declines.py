"""GM102 prints the in-graph print declines (torch 2.15; unsafe fixes off, so the file stays
unchanged and Dynamo keeps breaking). The text after the code in `# expect-decline: GM102 <reason>`
is part of the in-graph print's reason: a torch.Size, tuple or list fails when compiled
(observed on torch 2.15.0 under aot_eager and inductor: "is not a leaf node"), a file or flush
cannot be honoured, an `end` without a newline cannot be honoured (the operator always ends the
line), and unpacked arguments have no known number."""
import sys

import torch


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_print_shape": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(3, 2, seed=2),),
        lambda: (torch.zeros(1, 4),),
    ],
    "case_print_to_stderr": [
        lambda: (_randn(2, seed=1),),
        lambda: (_randn(3, seed=2),),
        lambda: (torch.ones(1),),
    ],
    "case_print_flush": [
        lambda: (_randn(2, seed=1),),
        lambda: (_randn(3, seed=2),),
        lambda: (torch.ones(1),),
    ],
    "case_print_without_newline": [
        lambda: (_randn(2, seed=1),),
        lambda: (_randn(3, seed=2),),
        lambda: (torch.ones(1),),
    ],
    "case_print_unpacked": [
        lambda: (_randn(2, seed=1),),
        lambda: (_randn(3, seed=2),),
        lambda: (torch.ones(1),),
    ],
    "case_print_tolist": [
        lambda: (_randn(2, seed=1),),
        lambda: (_randn(3, seed=2),),
        lambda: (torch.ones(1),),
    ],
}


@torch.compile
def case_print_shape(hidden_states):
    """A torch.Size."""
    print("shape", hidden_states.shape)  # expect-decline: GM102 not known to be a tensor, a number
    return hidden_states + 1


@torch.compile
def case_print_to_stderr(x):
    """`file=` another stream."""
    print("x", x, file=sys.stderr)  # expect-decline: GM102 prints to a file
    return x * 2


@torch.compile
def case_print_flush(x):
    """`flush=True`."""
    print("x", x, flush=True)  # expect-decline: GM102 flushes
    return x * 3


@torch.compile
def case_print_without_newline(x):
    """`end=""`: the operator always ends the line."""
    print("x", x, end="")  # expect-decline: GM102 always ends its line
    return x - 1


@torch.compile
def case_print_unpacked(x):
    """`*` unpacked arguments."""
    parts = ("values", x)
    print(*parts)  # expect-decline: GM102 unpacked arguments
    return x - 2


@torch.compile
def case_print_tolist(x):
    """A list read out of the tensor."""
    print("values", x.tolist())  # expect-decline: GM102 not known to be a tensor, a number
    return x + 2
