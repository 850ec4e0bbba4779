"""GM101 fix, elif chains: `if c1: x = a elif c2: x = b else: x = d`
-> `x = torch.where(c1, a, torch.where(c2, b, d))` (assignments, updates and returns)."""
import torch
import torch.nn as nn


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_elif_assign": [
        lambda: (_randn(2, 4, seed=1) * 20,),
        lambda: (_randn(2, 4, seed=2) * 2,),
        lambda: (_randn(2, 4, seed=3) * 0.1,),
    ],
    "case_elif_return": [
        lambda: (_randn(2, 4, seed=1).abs() + 1,),
        lambda: (-_randn(2, 4, seed=2).abs() - 1,),
        lambda: (torch.zeros(2, 4),),
    ],
    "case_elif_update_no_else": [
        lambda: (torch.tensor([[float("nan"), 1.0], [2.0, 3.0]]),),
        lambda: (torch.tensor([[float("inf"), 1.0], [2.0, 3.0]]),),
        lambda: (_randn(2, 2, seed=1),),
    ],
    "case_three_way_elif": [
        lambda: (_randn(3, 3, seed=1) + 10,),
        lambda: (_randn(3, 3, seed=2) + 2,),
        lambda: (_randn(3, 3, seed=3) - 2,),
        lambda: (_randn(3, 3, seed=4) - 10,),
    ],
    "case_elif_return_fallthrough": [
        lambda: (_randn(2, 4, seed=1) * 100,),
        lambda: (_randn(2, 4, seed=2) * 5,),
        lambda: (_randn(2, 4, seed=3) * 0.1,),
    ],
    "case_elif_not_condition": [
        lambda: (torch.tensor([[1.0, float("nan")], [0.0, 1.0]]), _randn(2, 2, seed=1)),
        lambda: (_randn(2, 2, seed=2), -_randn(2, 2, seed=3).abs() - 0.1),
        lambda: (_randn(2, 2, seed=4), _randn(2, 2, seed=5).abs() + 0.1),
    ],
    "case_elif_two_targets": [
        lambda: (_randn(2, 4, seed=1) + 5, _randn(2, 4, seed=2)),
        lambda: (_randn(2, 4, seed=3) - 5, _randn(2, 4, seed=4)),
        lambda: (_randn(2, 4, seed=5) * 0.1, _randn(2, 4, seed=6)),
    ],
    "CaseElifActivation": [
        lambda: (_randn(2, 4, seed=1) * 10,),
        lambda: (_randn(2, 4, seed=2) * 3,),
        lambda: (_randn(2, 4, seed=3) * 0.01,),
    ],
}


@torch.compile
def case_elif_assign(x):
    """Two conditions on the same reduction, with an else."""
    # expect-fix: GM101
    scale = torch.where(x.abs().max() > 10.0, x * 0.1, torch.where(x.abs().max() > 1.0, x * 0.5, x * 1.0))  # expect-fix: GM101
    return scale


@torch.compile
def case_elif_return(x):
    """An elif chain of returns."""
    # expect-fix: GM101
    return torch.where(x.sum() > 0, x * 2, torch.where(x.sum() < 0, -x, x + 1))  # expect-fix: GM101


@torch.compile
def case_elif_update_no_else(hidden_states):
    """An elif chain of updates without else: the innermost where keeps the old value."""
    # expect-fix: GM101
    hidden_states = torch.where(torch.isnan(hidden_states).any(), torch.nan_to_num(hidden_states, nan=0.0), torch.where(torch.isinf(hidden_states).any(), hidden_states.clamp(-1e4, 1e4), hidden_states))  # expect-fix: GM101
    return hidden_states


@torch.compile
def case_three_way_elif(x):
    """Three conditions, nested three times."""
    # expect-fix: GM101
    # expect-fix: GM101
    y = torch.where(x.mean() > 5.0, x - 5.0, torch.where(x.mean() > 0.0, x * 1.0, torch.where(x.mean() > -5.0, -x, x + 5.0)))  # expect-fix: GM101
    return y


@torch.compile
def case_elif_return_fallthrough(x):
    """`if c1: return a elif c2: return b` followed by `return d`."""
    # expect-fix: GM101
    return torch.where(x.abs().max() > 50.0, x.clamp(-50.0, 50.0), torch.where(x.abs().max() > 5.0, x.tanh(), x))  # expect-fix: GM101


@torch.compile
def case_elif_not_condition(x, y):
    """A `not` condition in the elif."""
    # expect-fix: GM101
    out = torch.where(torch.isnan(x).any(), torch.zeros_like(x), torch.where(torch.logical_not((y > 0).all()), x * 2.0, x))  # expect-fix: GM101
    return out


@torch.compile
def case_elif_two_targets(hidden_states, residual):
    """Two targets in every branch of an elif chain."""
    # expect-fix: GM101
    _gm_cond = hidden_states.mean() > 1.0  # expect-fix: GM101
    _gm_cond2 = hidden_states.mean() < -1.0
    hidden_states = torch.where(_gm_cond, hidden_states - 1.0, torch.where(_gm_cond2, hidden_states + 1.0, hidden_states * 1.0))
    residual = torch.where(_gm_cond, residual * 0.5, torch.where(_gm_cond2, residual * 2.0, residual * 1.0))
    return hidden_states + residual


class CaseElifActivation(nn.Module):
    """Module forward: pick an activation from the spread of the projected states."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        h = self.proj(x)
        # expect-fix: GM101
        h = torch.where(h.std() > 2.0, torch.tanh(h), torch.where(h.std() > 0.5, torch.relu(h), h))  # expect-fix: GM101
        return h
