"""GM101 fix, return shape: `if c: return a else: return b` (or `if c: return a` then `return b`)
-> `return torch.where(c, a, b)`."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_return_if_else": [
        lambda: (_randn(2, 4, seed=1).abs(),),
        lambda: (-_randn(2, 4, seed=2).abs(),),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "case_return_then_fallthrough": [
        lambda: (torch.tensor([[float("nan"), 1.0], [2.0, 3.0]]),),
        lambda: (_randn(2, 2, seed=1),),
        lambda: (torch.tensor([[0.0, 1.0], [float("nan"), float("nan")]]),),
    ],
    "case_all_positive_identity": [
        lambda: (_randn(2, 4, seed=1).abs() + 0.1,),
        lambda: (_randn(2, 4, seed=2),),
        lambda: (-_randn(2, 4, seed=3).abs() - 0.1,),
    ],
    "case_clamp_computed_value": [
        lambda: (_randn(2, 4, seed=1) * 10,),
        lambda: (_randn(2, 4, seed=2) * 0.1,),
        lambda: (torch.tensor([[2.5, 0.0], [0.0, 0.0]]),),
    ],
    "case_not_bounded_return": [
        lambda: (_randn(2, 4, seed=1) * 1000,),
        lambda: (_randn(2, 4, seed=2),),
        lambda: (torch.tensor([[150.0, -150.0], [0.0, 1.0]]),),
    ],
    "case_and_return": [
        lambda: (_randn(2, 4, seed=1).abs() + 0.1, _randn(2, 4, seed=2).abs() + 0.1),
        lambda: (_randn(2, 4, seed=3).abs() + 0.1, -_randn(2, 4, seed=4).abs() - 0.1),
        lambda: (-_randn(2, 4, seed=5).abs() - 0.1, _randn(2, 4, seed=6).abs() + 0.1),
    ],
    "case_relu_or_leaky": [
        lambda: (_randn(2, 4, seed=1) + 2,),
        lambda: (_randn(2, 4, seed=2) - 2,),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "case_sigmoid_or_tanh": [
        lambda: (_randn(3, 3, seed=1) * 3,),
        lambda: (_randn(3, 3, seed=2) * 0.3,),
        lambda: (_randn(3, 3, seed=3),),
    ],
    "CaseGatedReturn": [
        lambda: (_randn(2, 4, seed=1),),
        lambda: (_randn(2, 4, seed=2) + 3,),
        lambda: (_randn(2, 4, seed=3) - 3,),
    ],
    "CaseOverflowGuardReturn": [
        lambda: (torch.tensor([[float("inf"), 1.0, 2.0, 3.0], [0.0, 1.0, 2.0, 3.0]]),),
        lambda: (_randn(2, 4, seed=1),),
        lambda: (torch.tensor([[float("-inf"), 1.0, 2.0, 3.0], [0.0, 1.0, 2.0, float("inf")]]),),
    ],
}


@torch.compile
def case_return_if_else(x):
    """Both branches return an elementwise expression of x."""
    return torch.where(x.sum() > 0, x * 2, x + 1)  # expect-fix: GM101


@torch.compile
def case_return_then_fallthrough(hidden_states):
    """`if c: return a` followed by `return b`."""
    return torch.where(torch.isnan(hidden_states).any(), torch.zeros_like(hidden_states), hidden_states.tanh())  # expect-fix: GM101


@torch.compile
def case_all_positive_identity(x):
    """Return the input itself on one side."""
    return torch.where((x > 0).all(), x, x.abs())  # expect-fix: GM101


@torch.compile
def case_clamp_computed_value(x):
    """Statements before the if; the returned values are elementwise in a local."""
    h = x * 2
    return torch.where(h.max() > 4.0, h.clamp(max=4.0), h)  # expect-fix: GM101


@torch.compile
def case_not_bounded_return(x):
    """`not` of an `.all()` reduction."""
    return torch.where(torch.logical_not((x.abs() < 100.0).all()), x.clamp(-100.0, 100.0), x)  # expect-fix: GM101


@torch.compile
def case_and_return(x, y):
    """`and` of two reductions of different tensors; both returned values are elementwise in x."""
    return torch.where(torch.logical_and(x.min() > 0, y.min() > 0), x * 3.0, x - 1.0)  # expect-fix: GM101


@torch.compile
def case_relu_or_leaky(x):
    """Return one of two torch.nn.functional activations of the same tensor."""
    return torch.where(x.amax() > 0, F.relu(x), F.leaky_relu(x, 0.1))  # expect-fix: GM101


@torch.compile
def case_sigmoid_or_tanh(x):
    """Choose the squashing function by the spread of the values."""
    return torch.where(x.std() > 1.0, torch.sigmoid(x), torch.tanh(x))  # expect-fix: GM101


class CaseGatedReturn(nn.Module):
    """Module forward: return relu or a damped copy of the projected states."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        h = self.proj(x)
        return torch.where(h.mean() > 0, torch.relu(h), h * 0.1)  # expect-fix: GM101


class CaseOverflowGuardReturn(nn.Module):
    """Module forward: clamp an overflowing output, else return it unchanged."""

    def forward(self, hidden_states):
        hidden_states = hidden_states * 2
        return torch.where(torch.isinf(hidden_states).any(), hidden_states.clamp(-1e4, 1e4), hidden_states)  # expect-fix: GM101
