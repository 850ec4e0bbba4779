"""GM101 fix, common call: both branches call the same callee and differ in one argument.

`if c: y = f(x, a) else: y = f(x, b)` -> `y = f(x, torch.where(c, a, b))`.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_matmul_scaled_key": [
        lambda: (_randn(2, 3, seed=1), _randn(3, 2, seed=2) * 10),
        lambda: (_randn(2, 3, seed=3), _randn(3, 2, seed=4) * 0.1),
        lambda: (_randn(2, 3, seed=5), _randn(3, 2, seed=6)),
    ],
    "case_softmax_temperature": [
        lambda: (_randn(2, 5, seed=1) * 10,),
        lambda: (_randn(2, 5, seed=2) * 0.1,),
        lambda: (_randn(2, 5, seed=3),),
    ],
    "case_linear_on_squashed_input": [
        lambda: (_randn(2, 4, seed=1) * 10, _randn(3, 4, seed=2)),
        lambda: (_randn(2, 4, seed=3) * 0.1, _randn(3, 4, seed=4)),
        lambda: (_randn(2, 4, seed=5), _randn(3, 4, seed=6)),
    ],
    "case_bmm_masked_values": [
        lambda: (_randn(2, 3, 3, seed=1), _randn(2, 3, 4, seed=2), torch.ones(2, 3)),
        lambda: (_randn(2, 3, 3, seed=3), _randn(2, 3, 4, seed=4), torch.zeros(2, 3)),
        lambda: (_randn(2, 3, 3, seed=5), _randn(2, 3, 4, seed=6), torch.tensor([[1.0, 0.0, 1.0], [0.0, 0.0, 0.0]])),
    ],
    "case_einsum_sign": [
        lambda: (_randn(2, 3, seed=1).abs(), _randn(3, 4, seed=2)),
        lambda: (-_randn(2, 3, seed=3).abs(), _randn(3, 4, seed=4)),
        lambda: (_randn(2, 3, seed=5), _randn(3, 4, seed=6)),
    ],
    "case_normalize_shifted": [
        lambda: (_randn(2, 4, seed=1) + 5,),
        lambda: (_randn(2, 4, seed=2) - 5,),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "case_method_matmul_weight": [
        lambda: (_randn(2, 3, seed=1), _randn(3, 3, seed=2) * 10),
        lambda: (_randn(2, 3, seed=3), _randn(3, 3, seed=4) * 0.1),
        lambda: (_randn(2, 3, seed=5), _randn(3, 3, seed=6)),
    ],
    "CaseLinearOnClampedInput": [
        lambda: (_randn(2, 4, seed=1) * 100,),
        lambda: (_randn(2, 4, seed=2),),
        lambda: (_randn(2, 4, seed=3) * 5,),
    ],
}


@torch.compile
def case_matmul_scaled_key(query, key):
    """Scale the key down when it is large: the second matmul argument differs."""
    scores = torch.matmul(query, torch.where(key.abs().max() > 5.0, key * 0.1, key))  # expect-fix: GM101
    return scores


@torch.compile
def case_softmax_temperature(logits):
    """Soften large logits before softmax; the keyword argument is common to both calls."""
    probs = F.softmax(torch.where(logits.abs().max() > 5.0, logits * 0.5, logits), dim=-1)  # expect-fix: GM101
    return probs


@torch.compile
def case_linear_on_squashed_input(x, weight):
    """Same weight, the input is squashed with tanh on one side."""
    out = F.linear(torch.where(x.abs().max() > 3.0, torch.tanh(x), x), weight)  # expect-fix: GM101
    return out


@torch.compile
def case_bmm_masked_values(attn, values, mask):
    """Zero the values when the whole mask is empty; attn is common."""
    context = torch.bmm(attn, torch.where((mask == 0).all(), values * 0.0, values))  # expect-fix: GM101
    return context


@torch.compile
def case_einsum_sign(a, b):
    """einsum with a common equation string; the first operand differs."""
    c = torch.einsum("ij,jk->ik", torch.where(a.sum() > 0, a, -a), b)  # expect-fix: GM101
    return c


@torch.compile
def case_normalize_shifted(x):
    """F.normalize of a shifted input on one side, same keyword on both."""
    y = F.normalize(torch.where(x.mean() > 1.0, x - 1.0, x), dim=-1)  # expect-fix: GM101
    return y


@torch.compile
def case_method_matmul_weight(x, weight):
    """A method call on a common receiver whose argument differs."""
    h = x.matmul(torch.where(weight.abs().max() > 5.0, weight * 0.1, weight))  # expect-fix: GM101
    return h


class CaseLinearOnClampedInput(nn.Module):
    """Module forward: a functional linear with the module's weight on a clamped or raw input."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.linspace(-1.0, 1.0, 12).reshape(3, 4))

    def forward(self, x):
        out = F.linear(torch.where(x.abs().max() > 10.0, x.clamp(-10.0, 10.0), x), self.weight)  # expect-fix: GM101
        return out
