# config: unsafe-fixes = true
"""GM101 fixes offered as UNSAFE: a branch computes log/sqrt/div/pow/exp/rsqrt/reciprocal (the
unselected side is computed too, and its NaN/inf gradients leak through torch.where), or one side is
a Python number that becomes a tensor. Forward values stay identical on these inputs."""
import torch
import torch.nn as nn


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_log_when_positive": [
        lambda: (_randn(2, 4, seed=1).abs() + 0.1,),
        lambda: (_randn(2, 4, seed=2),),
        lambda: (-_randn(2, 4, seed=3).abs(),),
    ],
    "case_sqrt_of_variance": [
        lambda: (_randn(2, 4, seed=1).abs(),),
        lambda: (_randn(2, 4, seed=2),),
        lambda: (torch.tensor([[0.0, 4.0], [9.0, 16.0]]),),
    ],
    "case_divide_by_max": [
        lambda: (_randn(2, 4, seed=1) * 10,),
        lambda: (_randn(2, 4, seed=2) * 0.1,),
        lambda: (torch.tensor([[0.0, 0.0], [0.0, 0.0]]),),
    ],
    "case_rms_rsqrt": [
        lambda: (_randn(2, 4, seed=1),),
        lambda: (torch.zeros(2, 4),),
        lambda: (_randn(2, 4, seed=2) * 5,),
    ],
    "case_exp_when_small": [
        lambda: (_randn(2, 4, seed=1),),
        lambda: (_randn(2, 4, seed=2) * 100,),
        lambda: (torch.tensor([[19.0, 0.0], [-3.0, 1.0]]),),
    ],
    "case_reciprocal_nonzero": [
        lambda: (_randn(2, 4, seed=1).abs() + 0.5,),
        lambda: (torch.tensor([[0.0, 1.0], [2.0, 3.0]]),),
        lambda: (-_randn(2, 4, seed=2).abs() - 0.5,),
    ],
    "case_pow_when_bounded": [
        lambda: (_randn(2, 4, seed=1) * 0.3,),
        lambda: (_randn(2, 4, seed=2) * 3,),
        lambda: (torch.tensor([[0.5, -0.5], [0.0, 0.9]]),),
    ],
    "case_number_branch_shift": [
        lambda: (_randn(2, 4, seed=1) + 2,),
        lambda: (_randn(2, 4, seed=2) - 5,),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "case_number_branch_scale": [
        lambda: (_randn(2, 4, seed=1) * 3,),
        lambda: (_randn(2, 4, seed=2) * 0.5,),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "CaseLogSoftClip": [
        lambda: (_randn(2, 4, seed=1).abs() + 1,),
        lambda: (_randn(2, 4, seed=2),),
        lambda: (_randn(2, 4, seed=3).abs() * 10 + 0.5,),
    ],
}


@torch.compile
def case_log_when_positive(x):
    """log on one side (NaN in the unselected branch when some value is not positive)."""
    y = torch.where((x > 0).all(), torch.log(x), x)  # expect-fix: GM101 unsafe
    return y


@torch.compile
def case_sqrt_of_variance(var):
    """sqrt on one side."""
    std = torch.where((var >= 0).all(), var.sqrt(), var.abs())  # expect-fix: GM101 unsafe
    return std


@torch.compile
def case_divide_by_max(x):
    """Division in an else-less update (division by zero in the unselected branch)."""
    x = torch.where(x.abs().max() > 1.0, x / x.abs().max(), x)  # expect-fix: GM101 unsafe
    return x


@torch.compile
def case_rms_rsqrt(hidden_states):
    """rsqrt on one side (RMSNorm-like, skipped for an all-zero input)."""
    hidden_states = torch.where(hidden_states.pow(2).mean() > 0, hidden_states * torch.rsqrt(hidden_states.pow(2).mean() + 1e-6), hidden_states)  # expect-fix: GM101 unsafe
    return hidden_states


@torch.compile
def case_exp_when_small(x):
    """exp on one side (overflow to inf in the unselected branch)."""
    y = torch.where(x.max() < 20.0, torch.exp(x), x)  # expect-fix: GM101 unsafe
    return y


@torch.compile
def case_reciprocal_nonzero(x):
    """reciprocal on one side."""
    return torch.where((x != 0).all(), x.reciprocal(), x)  # expect-fix: GM101 unsafe


@torch.compile
def case_pow_when_bounded(x):
    """pow on one side."""
    return torch.where(x.abs().max() < 1.0, x.pow(3), x)  # expect-fix: GM101 unsafe


@torch.compile
def case_number_branch_shift(x):
    """One side is a Python number: the shift becomes a 0-d tensor (same values downstream)."""
    shift = torch.where(x.amax() > 0, x.amax(), 0.0)  # expect-fix: GM101 unsafe
    return x - shift


@torch.compile
def case_number_branch_scale(x):
    """A conditional expression with a number on one side, used in tensor arithmetic."""
    scale = torch.where(x.std() > 1.0, x.std(), 1.0)  # expect-fix: GM101 unsafe
    return x * scale


class CaseLogSoftClip(nn.Module):
    """Module forward: log1p-style soft clipping of large positive values."""

    def forward(self, hidden_states):
        hidden_states = torch.where(hidden_states.min() > 0.0, torch.log(hidden_states + 1.0), hidden_states)  # expect-fix: GM101 unsafe
        return hidden_states
