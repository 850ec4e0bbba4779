"""GM101 fixes in a module that imports torch under another name: the rewrite must use `th.where`,
`th.logical_not`, `th.logical_and`, never a bare `torch`."""
import torch as th
import torch.nn.functional as F


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return th.randn(*shape, generator=th.Generator().manual_seed(seed))


INPUTS = {
    "case_alias_assign": [
        lambda: (_randn(2, 4, seed=1).abs(),),
        lambda: (-_randn(2, 4, seed=2).abs(),),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "case_alias_not_update": [
        lambda: (th.tensor([[float("nan"), 1.0], [2.0, 3.0]]),),
        lambda: (_randn(2, 2, seed=1),),
        lambda: (th.tensor([[float("inf"), float("-inf")], [2.0, 3.0]]),),
    ],
    "case_alias_and_return": [
        lambda: (_randn(2, 4, seed=1).abs() + 0.1, th.ones(4)),
        lambda: (_randn(2, 4, seed=2).abs() + 0.1, th.zeros(4)),
        lambda: (-_randn(2, 4, seed=3).abs() - 0.1, th.ones(4)),
    ],
    "case_alias_ifexp": [
        lambda: (_randn(2, 4, seed=1) * 10,),
        lambda: (_randn(2, 4, seed=2) * 0.1,),
        lambda: (_randn(2, 4, seed=3),),
    ],
}


@th.compile
def case_alias_assign(x):
    """Assignment shape under `import torch as th`."""
    y = th.where(x.sum() > 0, th.tanh(x), x * 0.5)  # expect-fix: GM101
    return y


@th.compile
def case_alias_not_update(logits):
    """`not` becomes th.logical_not under the alias."""
    logits = th.where(th.logical_not(th.isfinite(logits).all()), th.nan_to_num(logits, nan=0.0, posinf=1e4, neginf=-1e4), logits)  # expect-fix: GM101
    return logits


@th.compile
def case_alias_and_return(x, mask):
    """`and` becomes th.logical_and under the alias."""
    return th.where(th.logical_and(x.min() > 0, mask.bool().all()), F.relu(x), -x)  # expect-fix: GM101


@th.compile
def case_alias_ifexp(x):
    """A conditional expression under the alias."""
    return th.where(x.abs().max() > 5.0, x.clamp(-5.0, 5.0), x)  # expect-fix: GM101
