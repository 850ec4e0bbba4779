"""GM101 fix, predicated side effect (torch 2.10 and 2.15): `if <one-element bool tensor>:` whose
body is one `warnings.warn("literal")` or module-logger call with a literal message becomes one
call of a predicated ORDERED custom op, `T.ops.graphmend.warn_if(cond, ...)` / `log_if(cond, ...)`:
the graph computes the condition and the op warns or logs, in program order, only when it holds.
Fix-all may first rewrite the call (GM102) and then the branch around it; the plain operator's
definition then gives its place to the predicated one."""
import logging
import warnings

import torch
import torch.nn as nn

logger = logging.getLogger(__name__)


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_warn_when_negative": [
        lambda: (_randn(2, 3, seed=1).abs(),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.zeros(1, 4),),
    ],
    "case_log_when_nan": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.tensor([[1.0, float("nan")], [0.0, 2.0]]),),
        lambda: (torch.zeros(1, 4),),
    ],
    "case_warn_category_under_and": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.tensor([[20.0, 1.0], [0.0, 2.0]]),),
        lambda: (torch.tensor([[200.0, 1.0], [0.0, 2.0]]),),
    ],
    "case_warning_between_computations": [
        lambda: (_randn(2, 3, seed=1) * 10,),
        lambda: (_randn(2, 3, seed=2) * 0.1,),
        lambda: (torch.ones(2, 2),),
    ],
    "case_warn_on_a_tensor_argument": [
        lambda: (_randn(2, 3, seed=1), torch.tensor(0.5)),
        lambda: (_randn(2, 3, seed=2), torch.tensor([-1.0])),
        lambda: (_randn(2, 3, seed=3), torch.tensor([[2.0]])),
        lambda: (_randn(2, 3, seed=4), torch.tensor([1.0, -2.0])),
    ],
    "CaseLogInForward": [
        lambda: (_randn(2, 4, seed=1).abs(),),
        lambda: (-_randn(2, 4, seed=2).abs(),),
        lambda: (torch.zeros(2, 4),),
    ],
}


@torch.compile
def case_warn_when_negative(x):
    """A UserWarning under a reduction of a comparison."""
    if (x < 0).any():  # expect-fix: GM101
        warnings.warn("negative inputs are clamped")  # expect-fix: GM102
    return x.clamp_min(0)


@torch.compile
def case_log_when_nan(x):
    """A module logger's warning under torch.isnan(...).any()."""
    if torch.isnan(x).any():  # expect-fix: GM101
        logger.warning("NaN in the input; replaced by zeros")  # expect-fix: GM102
    return x.nan_to_num()


@torch.compile
def case_warn_category_under_and(x):
    """An `and` of two one-element conditions, and a warning category."""
    if (x > 10).any() and (x < 100).all():  # expect-fix: GM101
        warnings.warn("large but finite values", RuntimeWarning)  # expect-fix: GM102
    return x / 10


@torch.compile
def case_warning_between_computations(x):
    """The record's place among other outputs: the warnings before and after keep their order."""
    y = x.abs().mean()
    warnings.warn("before")  # expect-fix: GM102
    if y > 1:  # expect-fix: GM101
        logger.warning("the mean magnitude is above one")  # expect-fix: GM102
    warnings.warn("after")  # expect-fix: GM102
    return x / (y + 1)


@torch.compile
def case_warn_on_a_tensor_argument(x, scale):
    """A condition of unknown shape (a tensor argument compared with a number): the operator takes
    bool() of it when the graph runs, so two elements raise there as the if did."""
    if scale < 0:  # expect-fix: GM101
        warnings.warn("a negative scale flips the output")  # expect-fix: GM102
    return x * scale


class CaseLogInForward(nn.Module):
    """Module forward: an error record when every activation is non-positive."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        h = self.proj(x).relu()
        if (h == 0).all():  # expect-fix: GM101
            logger.error("every activation is zero")  # expect-fix: GM102
        return h
