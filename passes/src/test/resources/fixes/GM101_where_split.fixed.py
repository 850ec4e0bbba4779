"""GM101 fix, mixed condition split: `if S and T: body` (no else), where the leading conjuncts `S`
are decided by Dynamo while tracing (`x.dtype == torch.float32`, `mask is not None`) and `T` are
tensor conditions, becomes `if S:` around the torch.where rewrite of `if T: body`. The static part
stays a Python `if`, so it keeps guarding what it guarded (a None mask is never touched) and Dynamo
still specialises on it; only the tensor part is predicated. With an else branch the split would
duplicate the else: not offered (the ordinary rewrite's reason is given)."""
import torch


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_dtype_and_inf": [
        lambda: (torch.tensor([1.0, float("inf"), -2.0]),),
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.tensor([[float("-inf"), 0.5]]),),
    ],
    "case_mask_not_none_and_all": [
        lambda: (_randn(2, 3, seed=1), torch.ones(2, 3)),
        lambda: (_randn(2, 3, seed=2), torch.zeros(2, 3)),
        lambda: (_randn(2, 3, seed=3), None),
    ],
    "case_two_static_two_tensor_parts": [
        lambda: (torch.full((2, 2), 3.0), 2.0),
        lambda: (_randn(2, 2, seed=1), 2.0),
        lambda: (torch.full((2, 2), 3.0), None),
    ],
    "case_with_else": [
        lambda: (_randn(2, 3, seed=1), torch.ones(2, 3)),
        lambda: (_randn(2, 3, seed=2), torch.zeros(2, 3)),
        lambda: (_randn(2, 3, seed=3), None),
    ],
}


@torch.compile
def case_dtype_and_inf(x):
    """T5's fp16 clamp shape, with the dtype part true for FP32 inputs."""
    if x.dtype == torch.float32:  # expect-fix: GM101
        x = torch.where(torch.isinf(x).any(), torch.nan_to_num(x), x)
    return x * 2


@torch.compile
def case_mask_not_none_and_all(x, mask=None):
    """An optional mask: the None test stays a Python if."""
    if mask is not None:  # expect-fix: GM101
        x = torch.where(torch.all(mask == 1), x + 1, x)
    return x


@torch.compile
def case_two_static_two_tensor_parts(x, scale=None):
    """Two static conjuncts, then two tensor ones."""
    if x.dim() == 2 and scale is not None:  # expect-fix: GM101
        x = torch.where(torch.logical_and((x > 0).all(), (x < 10).all()), x * 0.5, x)
    return x - 1


@torch.compile
def case_with_else(x, mask=None):
    """An else branch: splitting would duplicate it."""
    if mask is not None and torch.all(mask == 1):  # expect-decline: GM101 not a boolean tensor
        x = x + 1
    else:
        x = x - 1
    return x
