# config: unsafe-fixes = true
"""GM101 sites whose branches call modules or other torch operations that torch.where would run
unconditionally: the unsafe "Rewrite to torch.cond" turns each branch into a local function of the
tensors it reads. Outputs must stay bit-identical and the break must go (torch 2.15)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "CaseCondProjection": [
        lambda: (_randn(2, 4, seed=1) + 1.0,),
        lambda: (_randn(2, 4, seed=2) - 1.0,),
        lambda: (torch.zeros(2, 4),),
    ],
    "CaseCondReturnGelu": [
        lambda: (_randn(3, 4, seed=3) + 2.0,),
        lambda: (_randn(3, 4, seed=4) - 2.0,),
        lambda: (_randn(3, 4, seed=5),),
    ],
    "CaseCondIdentityBranch": [
        lambda: (_randn(2, 4, seed=6) * 10.0,),
        lambda: (_randn(2, 4, seed=7) * 0.01,),
        lambda: (torch.ones(2, 4),),
    ],
    "CaseCondTwoOperands": [
        lambda: (_randn(2, 4, seed=8), torch.ones(2, 4)),
        lambda: (_randn(2, 4, seed=9), torch.zeros(2, 4)),
        lambda: (_randn(2, 4, seed=10), torch.full((2, 4), 0.5)),
    ],
    "CaseCondAttributeWriteDeclined": [
        lambda: (_randn(2, 4, seed=11) + 1.0,),
        lambda: (_randn(2, 4, seed=12) - 1.0,),
        lambda: (torch.zeros(2, 4),),
    ],
}


class CaseCondProjection(nn.Module):
    """Branches call different submodules: torch.cond runs only the selected one."""

    def __init__(self):
        super().__init__()
        self.up = nn.Linear(4, 4)
        self.down = nn.Linear(4, 4)

    def forward(self, x):
        def _gm_true(x):
            return self.up(x)
        def _gm_false(x):
            return self.down(x)
        y = torch.cond(x.sum() > 0, _gm_true, _gm_false, (x,))  # expect-fix: GM101 unsafe
        return y * 2.0


class CaseCondReturnGelu(nn.Module):
    """Returns in both branches; one applies a projection and an activation."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, hidden_states):
        def _gm_true(hidden_states):
            return F.gelu(self.proj(hidden_states))
        def _gm_false(hidden_states):
            return hidden_states * 0.5
        return torch.cond(hidden_states.mean() > 0, _gm_true, _gm_false, (hidden_states,))  # expect-fix: GM101 unsafe


class CaseCondIdentityBranch(nn.Module):
    """One branch returns its input unchanged: the rewrite returns a clone (torch.cond forbids aliasing)."""

    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(4)

    def forward(self, x):
        def _gm_true(x):
            return self.norm(x)
        def _gm_false(x):
            return x.clone()
        x = torch.cond(x.abs().max() > 5.0, _gm_true, _gm_false, (x,))  # expect-fix: GM101 unsafe
        return x + 1.0


class CaseCondTwoOperands(nn.Module):
    """The branches read two tensors: both become operands."""

    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(4, 4)

    def forward(self, x, mask):
        def _gm_true(x, mask):
            return self.gate(x) * mask
        def _gm_false(x, mask):
            return x - mask
        out = torch.cond(mask.any(), _gm_true, _gm_false, (x, mask))  # expect-fix: GM101 unsafe
        return out


class CaseCondAttributeWriteDeclined(nn.Module):
    """A branch also writes an attribute: not a pure branch, so neither torch.where nor torch.cond applies."""

    def __init__(self):
        super().__init__()
        self.up = nn.Linear(4, 4)

    def forward(self, x):
        if x.sum() > 0:  # expect-decline: GM101 more than assignments
            y = self.up(x)
            self.took_positive = True
        else:
            y = x * 2.0
        return y
