"""GM101 fix, conditional expressions: `a if c else b` -> `torch.where(c, a, b)`."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_ifexp_assign": [
        lambda: (_randn(2, 4, seed=1) * 10,),
        lambda: (_randn(2, 4, seed=2) * 0.1,),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "case_ifexp_return": [
        lambda: (_randn(2, 4, seed=1) + 3,),
        lambda: (_randn(2, 4, seed=2) - 3,),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "case_ifexp_call_argument": [
        lambda: (_randn(2, 4, seed=1).abs(),),
        lambda: (-_randn(2, 4, seed=2).abs(),),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "case_ifexp_in_arithmetic": [
        lambda: (_randn(2, 4, seed=1) + 1,),
        lambda: (_randn(2, 4, seed=2) - 1,),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "case_ifexp_not": [
        lambda: (torch.tensor([[float("nan"), 1.0], [2.0, 3.0]]),),
        lambda: (_randn(2, 2, seed=1),),
        lambda: (torch.tensor([[float("inf"), 1.0], [2.0, float("nan")]]),),
    ],
    "case_ifexp_nested": [
        lambda: (_randn(2, 4, seed=1) + 10,),
        lambda: (_randn(2, 4, seed=2) - 10,),
        lambda: (_randn(2, 4, seed=3) * 0.1,),
    ],
    "case_ifexp_and": [
        lambda: (_randn(2, 4, seed=1).abs() + 0.1, torch.ones(2, 4)),
        lambda: (_randn(2, 4, seed=2).abs() + 0.1, torch.zeros(2, 4)),
        lambda: (-_randn(2, 4, seed=3).abs() - 0.1, torch.ones(2, 4)),
    ],
    "case_ifexp_named_condition": [
        lambda: (torch.tensor([[float("inf"), 1.0], [2.0, 3.0]]),),
        lambda: (_randn(2, 2, seed=1),),
        lambda: (torch.tensor([[1.0, 1.0], [float("-inf"), 3.0]]),),
    ],
    "case_ifexp_tuple_element": [
        lambda: (_randn(2, 4, seed=1) * 10,),
        lambda: (_randn(2, 4, seed=2) * 0.1,),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "CaseIfExpResidual": [
        lambda: (_randn(2, 4, seed=1),),
        lambda: (_randn(2, 4, seed=2) * 100,),
        lambda: (_randn(2, 4, seed=3) * 0.01,),
    ],
}


@torch.compile
def case_ifexp_assign(x):
    """A conditional expression assigned to a name."""
    y = torch.where(x.abs().max() > 1.0, x * 0.5, x)  # expect-fix: GM101
    return y


@torch.compile
def case_ifexp_return(x):
    """A returned conditional expression (GM101 fixture style)."""
    return torch.where(x.max() > 1, x, -x)  # expect-fix: GM101


@torch.compile
def case_ifexp_call_argument(x):
    """A conditional expression as a call argument."""
    return F.relu(torch.where(x.sum() > 0, x, -x))  # expect-fix: GM101


@torch.compile
def case_ifexp_in_arithmetic(x):
    """A conditional expression inside a larger expression."""
    out = x + (torch.where(x.mean() > 0, x.tanh(), x.sigmoid()))  # expect-fix: GM101
    return out


@torch.compile
def case_ifexp_not(logits):
    """`not` in the test of a conditional expression."""
    logits = torch.where(torch.logical_not(torch.isnan(logits).any()), logits, torch.nan_to_num(logits))  # expect-fix: GM101
    return logits


@torch.compile
def case_ifexp_nested(x):
    """A conditional expression nested in the else side of another."""
    return torch.where(x.mean() > 5, x - 10.0, torch.where(x.mean() < -5, x + 10.0, x))  # expect-fix: GM101


@torch.compile
def case_ifexp_and(hidden_states, attention_mask):
    """`and` of two bool tensor reductions in the test."""
    h = torch.where(torch.logical_and(hidden_states.min() > 0, attention_mask.bool().all()), hidden_states.relu(), hidden_states)  # expect-fix: GM101
    return h * 2


@torch.compile
def case_ifexp_named_condition(hidden_states):
    """The test is a local bool tensor name."""
    overflow = torch.isinf(hidden_states).any()
    hidden_states = torch.where(overflow, hidden_states.clamp(-1e4, 1e4), hidden_states)  # expect-fix: GM101
    return hidden_states


@torch.compile
def case_ifexp_tuple_element(x):
    """A conditional expression as one element of a returned tuple."""
    return (torch.where(x.abs().max() > 5.0, x * 0.1, x)), x  # expect-fix: GM101


class CaseIfExpResidual(nn.Module):
    """Module forward: damp the residual branch when it is large."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, hidden_states):
        residual = self.proj(hidden_states)
        residual = torch.where(residual.abs().max() > 10.0, residual * 0.1, residual)  # expect-fix: GM101
        return hidden_states + residual
