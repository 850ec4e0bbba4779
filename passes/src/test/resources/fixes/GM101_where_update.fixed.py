"""GM101 fix, else-less update: `if c: x = v` -> `x = torch.where(c, v, x)` (x has a value before)."""
import torch
import torch.nn as nn


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_t5_clamp_inf": [
        lambda: (torch.tensor([[1.0, float("inf")], [-2.0, 3.0]]),),
        lambda: (_randn(2, 2, seed=1),),
        lambda: (torch.tensor([[float("-inf"), 7.0e38], [0.0, 1.0]]),),
    ],
    "case_halve_above_threshold": [
        lambda: (_randn(2, 4, seed=1) * 10, 2.0),
        lambda: (_randn(2, 4, seed=2) * 0.1, 2.0),
        lambda: (_randn(2, 4, seed=3), 0.5),
    ],
    "case_zero_fully_masked": [
        lambda: (_randn(2, 4, seed=1), torch.zeros(2, 4)),
        lambda: (_randn(2, 4, seed=2), torch.ones(2, 4)),
        lambda: (_randn(2, 4, seed=3), torch.tensor([[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0]])),
    ],
    "case_flip_two_targets": [
        lambda: (torch.ones(4), _randn(2, 4, seed=1), _randn(2, 4, seed=2)),
        lambda: (-torch.ones(4), _randn(2, 4, seed=3), _randn(2, 4, seed=4)),
        lambda: (_randn(4, seed=5), _randn(2, 4, seed=6), _randn(2, 4, seed=7)),
    ],
    "case_rescale_on_own_max": [
        lambda: (_randn(3, 3, seed=1) * 100,),
        lambda: (_randn(3, 3, seed=2),),
        lambda: (torch.tensor([[10.5, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),),
    ],
    "case_nan_to_num_when_needed": [
        lambda: (torch.tensor([[float("nan"), 1.0], [float("inf"), -2.0]]),),
        lambda: (_randn(2, 2, seed=1),),
        lambda: (torch.tensor([[float("-inf"), 0.5], [0.25, 0.0]]),),
    ],
    "case_relu_when_both_positive": [
        lambda: (_randn(2, 4, seed=1).abs() + 1, torch.ones(3)),
        lambda: (_randn(2, 4, seed=2), -torch.ones(3)),
        lambda: (-_randn(2, 4, seed=3).abs() - 1, torch.ones(3)),
    ],
    "case_clamp_after_matmul": [
        lambda: (_randn(2, 3, seed=1) * 10, _randn(3, 4, seed=2) * 10),
        lambda: (_randn(2, 3, seed=3) * 0.1, _randn(3, 4, seed=4) * 0.1),
        lambda: (_randn(2, 3, seed=5), _randn(3, 4, seed=6)),
    ],
    "case_torch_any_lower_bound": [
        lambda: (_randn(2, 4, seed=1) * 10,),
        lambda: (_randn(2, 4, seed=2),),
        lambda: (torch.tensor([[-5.5, 0.0], [1.0, 2.0]]),),
    ],
    "CaseNormClip": [
        lambda: (_randn(2, 4, seed=1) * 10,),
        lambda: (_randn(2, 4, seed=2) * 0.1,),
        lambda: (_randn(2, 4, seed=3),),
    ],
}


@torch.compile
def case_t5_clamp_inf(hidden_states):
    """T5: clamp inf values to the largest finite fp value only when some value overflowed."""
    clamp_value = torch.finfo(hidden_states.dtype).max - 1000
    hidden_states = torch.where(torch.isinf(hidden_states).any(), torch.clamp(hidden_states, min=-clamp_value, max=clamp_value), hidden_states)  # expect-fix: GM101
    return hidden_states


@torch.compile
def case_halve_above_threshold(x, threshold: float):
    """Compare a reduction with a Python float argument."""
    x = torch.where(x.max() > threshold, x * 0.5, x)  # expect-fix: GM101
    return x


@torch.compile
def case_zero_fully_masked(scores, attention_mask):
    """Zero the scores when every position is masked."""
    scores = torch.where((attention_mask == 0).all(), scores * 0.0, scores)  # expect-fix: GM101
    return scores + attention_mask


@torch.compile
def case_flip_two_targets(gate, hidden_states, residual):
    """Else-less update of two targets from one condition (the condition is saved first)."""
    _gm_cond = gate.sum() < 0  # expect-fix: GM101
    hidden_states = torch.where(_gm_cond, -hidden_states, hidden_states)
    residual = torch.where(_gm_cond, -residual, residual)
    return hidden_states + residual


@torch.compile
def case_rescale_on_own_max(x):
    """The condition reads the updated name itself."""
    x = torch.where(x.abs().max() > 10.0, x * 0.1, x)  # expect-fix: GM101
    return x


@torch.compile
def case_nan_to_num_when_needed(logits):
    """`not ... .all()` on isfinite, keyword arguments inside a pure torch call."""
    logits = torch.where(torch.logical_not(torch.isfinite(logits).all()), torch.nan_to_num(logits, nan=0.0, posinf=1e4, neginf=-1e4), logits)  # expect-fix: GM101
    return logits


@torch.compile
def case_relu_when_both_positive(hidden_states, bias):
    """`and` of two comparisons of reductions."""
    hidden_states = torch.where(torch.logical_and(hidden_states.mean() > 0, bias.sum() > 0), hidden_states.relu(), hidden_states)  # expect-fix: GM101
    return hidden_states


@torch.compile
def case_clamp_after_matmul(a, b):
    """Update a value computed earlier in the function."""
    out = a @ b
    out = torch.where(out.abs().sum() > 100.0, out.clamp(-10.0, 10.0), out)  # expect-fix: GM101
    return out


@torch.compile
def case_torch_any_lower_bound(x):
    """torch.any of an elementwise comparison."""
    x = torch.where(torch.any(x < -5.0), torch.clamp(x, min=-5.0), x)  # expect-fix: GM101
    return x


class CaseNormClip(nn.Module):
    """Module forward: scale the projected states down when their norm is large."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.max_norm = 5.0

    def forward(self, x):
        h = self.proj(x)
        h = torch.where(h.norm() > self.max_norm, h * 0.5, h)  # expect-fix: GM101
        return h
