"""GM101 fix in a module that imports torch only when it is installed (`if find_spec("torch"):
import torch`, as libraries with optional torch support do): the rewrite spells that torch and adds
no import of its own, which would make the module need torch."""
import importlib.util

if importlib.util.find_spec("torch") is not None:
    import torch


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_select_scaled": [
        lambda: (_randn(2, 3, seed=1) + 3,),
        lambda: (_randn(2, 3, seed=2) - 3,),
        lambda: (_randn(2, 3, seed=3),),
    ],
}


@torch.compile
def case_select_scaled(x):
    """A plain where rewrite; torch comes from the guarded import."""
    if x.sum() > 0:  # expect-fix: GM101
        y = x * 2
    else:
        y = x * 0.5
    return y + 1
