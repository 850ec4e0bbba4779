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
    if x.abs().max() > 10.0:  # expect-fix: GM101
        scale = x * 0.1
    elif x.abs().max() > 1.0:  # expect-fix: GM101
        scale = x * 0.5
    else:
        scale = x * 1.0
    return scale


@torch.compile
def case_elif_return(x):
    """An elif chain of returns."""
    if x.sum() > 0:  # expect-fix: GM101
        return x * 2
    elif x.sum() < 0:  # expect-fix: GM101
        return -x
    else:
        return x + 1


@torch.compile
def case_elif_update_no_else(hidden_states):
    """An elif chain of updates without else: the innermost where keeps the old value."""
    if torch.isnan(hidden_states).any():  # expect-fix: GM101
        hidden_states = torch.nan_to_num(hidden_states, nan=0.0)
    elif torch.isinf(hidden_states).any():  # expect-fix: GM101
        hidden_states = hidden_states.clamp(-1e4, 1e4)
    return hidden_states


@torch.compile
def case_three_way_elif(x):
    """Three conditions, nested three times."""
    if x.mean() > 5.0:  # expect-fix: GM101
        y = x - 5.0
    elif x.mean() > 0.0:  # expect-fix: GM101
        y = x * 1.0
    elif x.mean() > -5.0:  # expect-fix: GM101
        y = -x
    else:
        y = x + 5.0
    return y


@torch.compile
def case_elif_return_fallthrough(x):
    """`if c1: return a elif c2: return b` followed by `return d`."""
    if x.abs().max() > 50.0:  # expect-fix: GM101
        return x.clamp(-50.0, 50.0)
    elif x.abs().max() > 5.0:  # expect-fix: GM101
        return x.tanh()
    return x


@torch.compile
def case_elif_not_condition(x, y):
    """A `not` condition in the elif."""
    if torch.isnan(x).any():  # expect-fix: GM101
        out = torch.zeros_like(x)
    elif not (y > 0).all():  # expect-fix: GM101
        out = x * 2.0
    else:
        out = x
    return out


@torch.compile
def case_elif_two_targets(hidden_states, residual):
    """Two targets in every branch of an elif chain."""
    if hidden_states.mean() > 1.0:  # expect-fix: GM101
        hidden_states = hidden_states - 1.0
        residual = residual * 0.5
    elif hidden_states.mean() < -1.0:  # expect-fix: GM101
        hidden_states = hidden_states + 1.0
        residual = residual * 2.0
    else:
        hidden_states = hidden_states * 1.0
        residual = residual * 1.0
    return hidden_states + residual


class CaseElifActivation(nn.Module):
    """Module forward: pick an activation from the spread of the projected states."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        h = self.proj(x)
        if h.std() > 2.0:  # expect-fix: GM101
            h = torch.tanh(h)
        elif h.std() > 0.5:  # expect-fix: GM101
            h = torch.relu(h)
        return h
