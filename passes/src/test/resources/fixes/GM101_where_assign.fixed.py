"""GM101 fix, assignment shape: the same targets assigned in both branches become torch.where.

`if c: x = a else: x = b` -> `x = torch.where(c, a, b)`; with several targets the condition is
first saved in `_gm_cond` (unless it is a plain name), then one where per target.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_scale_by_sign": [
        lambda: (_randn(2, 4, seed=1).abs(),),
        lambda: (-_randn(2, 4, seed=2).abs(),),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "case_tanh_on_large_values": [
        lambda: (_randn(2, 4, seed=1) * 10,),
        lambda: (_randn(2, 4, seed=2) * 0.1,),
        lambda: (torch.tensor([[3.5, -0.2], [0.1, 0.0]]),),
    ],
    "case_center_unless_masked": [
        lambda: (_randn(2, 4, seed=1), torch.zeros(2, 4)),
        lambda: (_randn(2, 4, seed=2), torch.ones(2, 4)),
        lambda: (_randn(2, 4, seed=3), torch.tensor([[1.0, 0.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]])),
    ],
    "case_two_targets_condition_reads_target": [
        lambda: (_randn(2, 4, seed=1).abs(), _randn(2, 4, seed=2)),
        lambda: (-_randn(2, 4, seed=3).abs(), _randn(2, 4, seed=4)),
        lambda: (_randn(2, 4, seed=5), _randn(2, 4, seed=6)),
    ],
    "case_two_targets_gate": [
        lambda: (_randn(2, 4, seed=1), _randn(2, 4, seed=2), torch.ones(4)),
        lambda: (_randn(2, 4, seed=3), _randn(2, 4, seed=4), -torch.ones(4)),
        lambda: (_randn(2, 4, seed=5), _randn(2, 4, seed=6), _randn(4, seed=7)),
    ],
    "case_named_condition_two_targets": [
        lambda: (torch.tensor([[1.0, float("inf")], [0.5, 2.0]]), _randn(2, 2, seed=1)),
        lambda: (_randn(2, 2, seed=2), _randn(2, 2, seed=3)),
        lambda: (torch.tensor([[float("-inf"), 1e5], [-1e5, 0.0]]), _randn(2, 2, seed=4)),
    ],
    "case_not_finite_zeros": [
        lambda: (torch.tensor([[1.0, float("nan")], [2.0, 3.0]]),),
        lambda: (_randn(2, 2, seed=1),),
        lambda: (torch.tensor([[float("inf"), 1.0], [0.0, -1.0]]),),
    ],
    "case_and_of_reductions": [
        lambda: (_randn(2, 4, seed=1).abs() + 0.1, torch.tensor([1, 1, 1, 1])),
        lambda: (_randn(2, 4, seed=2).abs() + 0.1, torch.tensor([1, 0, 1, 1])),
        lambda: (-_randn(2, 4, seed=3).abs() - 0.1, torch.tensor([1, 1, 1, 1])),
    ],
    "case_compare_two_stds": [
        lambda: (_randn(3, 4, seed=1) * 3, _randn(3, 4, seed=2)),
        lambda: (_randn(3, 4, seed=3), _randn(3, 4, seed=4) * 3),
        lambda: (_randn(3, 4, seed=5) * 0.5, _randn(3, 4, seed=6) * 0.25),
    ],
    "CaseGatedActivation": [
        lambda: (_randn(2, 4, seed=1),),
        lambda: (_randn(2, 4, seed=2) - 3,),
        lambda: (_randn(2, 4, seed=3) + 3,),
    ],
    "CaseLayerScaleSwitch": [
        lambda: (_randn(2, 4, seed=1),),
        lambda: (_randn(2, 4, seed=2) * 100,),
        lambda: (-_randn(2, 4, seed=3) * 100,),
    ],
}


@torch.compile
def case_scale_by_sign(hidden_states):
    """Halve positive-sum activations, double the others."""
    hidden_states = torch.where(hidden_states.sum() > 0, hidden_states * 0.5, hidden_states * 2.0)  # expect-fix: GM101
    return hidden_states + 1


@torch.compile
def case_tanh_on_large_values(x):
    """Squash with tanh only when some value is large (two elementwise sides of one tensor)."""
    out = torch.where(x.abs().max() > 3.0, torch.tanh(x), x)  # expect-fix: GM101
    return out * 2


@torch.compile
def case_center_unless_masked(scores, attention_mask):
    """Fully masked rows are zeroed, otherwise the scores are centred on their maximum."""
    scores = torch.where((attention_mask == 0).all(), scores * 0.0, scores - scores.amax())  # expect-fix: GM101
    return scores.softmax(-1)


@torch.compile
def case_two_targets_condition_reads_target(hidden_states, residual):
    """Two targets; the condition reads the first target, so it must be saved before rewriting."""
    _gm_cond = hidden_states.sum() > 0  # expect-fix: GM101
    hidden_states = torch.where(_gm_cond, hidden_states * 0.5, -hidden_states)
    residual = torch.where(_gm_cond, residual * 0.5, -residual)
    return hidden_states + residual


@torch.compile
def case_two_targets_gate(query, key, gate):
    """Scale query and key together depending on the mean of a gate vector."""
    _gm_cond = gate.mean() > 0  # expect-fix: GM101
    query = torch.where(_gm_cond, query * 2.0, query + 1.0)
    key = torch.where(_gm_cond, key * 2.0, key - 1.0)
    return query @ key.transpose(0, 1)


@torch.compile
def case_named_condition_two_targets(hidden_states, residual):
    """T5-style overflow flag in a local name (a plain-name condition needs no `_gm_cond`)."""
    overflow = torch.isinf(hidden_states).any()
    hidden_states = torch.where(overflow, hidden_states.clamp(-1000.0, 1000.0), hidden_states * 1.0)  # expect-fix: GM101
    residual = torch.where(overflow, residual.clamp(-1000.0, 1000.0), residual * 1.0)
    return hidden_states, residual


@torch.compile
def case_not_finite_zeros(logits):
    """`not` of a bool tensor reduction becomes torch.logical_not."""
    logits = torch.where(torch.logical_not(torch.isfinite(logits).all()), torch.zeros_like(logits), logits - 1.0)  # expect-fix: GM101
    return logits


@torch.compile
def case_and_of_reductions(hidden_states, token_mask):
    """`and` of two bool tensor reductions becomes torch.logical_and."""
    hidden_states = torch.where(torch.logical_and(hidden_states.min() > 0, token_mask.all()), torch.relu(hidden_states), -hidden_states)  # expect-fix: GM101
    return hidden_states


@torch.compile
def case_compare_two_stds(x, y):
    """The condition compares two reductions; the branch values are elementwise in x."""
    z = torch.where(x.std() > y.std(), x * 0.5, x * 2.0)  # expect-fix: GM101
    return z + y


class CaseGatedActivation(nn.Module):
    """Module forward: pick relu or a leaky slope of the projected hidden states."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        h = self.proj(x)
        h = torch.where(h.mean() > 0, F.relu(h), h * 0.01)  # expect-fix: GM101
        return h


class CaseLayerScaleSwitch(nn.Module):
    """Module forward: two targets (hidden states and a scale) chosen on the hidden states' norm."""

    def __init__(self):
        super().__init__()
        self.gamma = nn.Parameter(torch.full((4,), 0.5))

    def forward(self, hidden_states):
        scale = self.gamma * 1.0
        _gm_cond = hidden_states.norm() > 10.0  # expect-fix: GM101
        hidden_states = torch.where(_gm_cond, hidden_states * 0.1, hidden_states + 0.0)
        scale = torch.where(_gm_cond, scale * 0.1, scale + 0.0)
        return hidden_states * scale
