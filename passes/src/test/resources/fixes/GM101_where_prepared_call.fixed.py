# config: unsafe-fixes = true
"""GM101 fix, prepared common call: every branch ends in the same call with one differing argument,
after statements that prepare that argument (a cache built lazily, a tensor moved to a device).

`if c: prep_a; f(x, a) else: prep_b; f(x, b)` -> `prep_a; prep_b; f(x, torch.where(c, a, b))`.

Always unsafe: the preparation of the branch that is not taken now runs too (a lazily built cache
is built on the first call whatever the condition), and the call's argument is a new tensor rather
than the branch's own (an alias of it before). Declined when a preparation writes a name the
condition, the other branch or its argument reads (running both would change what they see), when a
preparation can leave the branch (`return`, `raise`, `break`, `continue`), or when the last
statements are not one call differing in one argument.
"""
import torch
import torch.nn as nn


def _long_factors(n, device):
    """The long-context factors of the rotary cases (not a case)."""
    return torch.arange(n, dtype=torch.float32, device=device) * 0.5 + 1.0


INPUTS = {
    "CaseLazyLongFactors": [
        lambda: (torch.arange(6).reshape(1, 6),),
        lambda: (torch.arange(3).reshape(1, 3),),
        lambda: (torch.tensor([[0, 1, 9]]),),
    ],
    "CaseAssignedCall": [
        lambda: (torch.tensor([1.0, 2.0, 3.0]),),
        lambda: (torch.tensor([-1.0, 0.5, 0.25]),),
        lambda: (torch.tensor([0.0, 0.0, 0.0]),),
    ],
    "CaseReadsOtherPreparation": [
        lambda: (torch.tensor([1.0, 2.0, 3.0]),),
        lambda: (torch.tensor([-1.0, 0.5, 0.25]),),
        lambda: (torch.tensor([0.0, 0.0, 0.0]),),
    ],
    "CaseConditionName": [
        lambda: (torch.tensor([1.0, 2.0, 3.0]),),
        lambda: (torch.tensor([-1.0, 0.5, 0.25]),),
        lambda: (torch.tensor([0.0, 0.0, 0.0]),),
    ],
    "CaseLeavesBranch": [
        lambda: (torch.tensor([1.0, 2.0, 3.0]),),
        lambda: (torch.tensor([-1.0, 0.5, 0.25]),),
        lambda: (torch.tensor([0.0, 0.0, 0.0]),),
    ],
}


class CaseLazyLongFactors(nn.Module):
    """Phi-3's longrope update: long factors built once, lazily, in one branch; a device move in the other."""

    def __init__(self):
        super().__init__()
        self.register_buffer("inv_freq", torch.arange(4, dtype=torch.float32), persistent=False)
        self.original_inv_freq = self.inv_freq
        self.max_positions = 4

    def forward(self, position_ids):
        seq_len = torch.max(position_ids) + 1
        limit = self.max_positions
        # expect-fix: GM101 unsafe
        if not hasattr(self, "long_inv_freq"):
            self.long_inv_freq = _long_factors(4, position_ids.device)
        # the original factors follow the module to its device
        self.original_inv_freq = self.original_inv_freq.to(position_ids.device)
        self.register_buffer("inv_freq", torch.where(seq_len > limit, self.long_inv_freq, self.original_inv_freq), persistent=False)
        return position_ids[..., None].float() * self.inv_freq


class CaseAssignedCall(nn.Module):
    """The call's result is assigned; each branch prepares its own scale first."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.linspace(-1.0, 1.0, 3))

    def forward(self, x):
        # expect-fix: GM101 unsafe
        up = x * 2.0
        down = x * 0.5
        y = torch.mul(self.weight, torch.where(x.sum() > 0, up, down))
        return y + 1


class CaseReadsOtherPreparation(nn.Module):
    """The else branch's preparation reads a name the if branch's preparation assigns."""

    def forward(self, x):
        scale = x * 0.5
        if x.sum() > 0:  # expect-decline: GM101 a preparation assigns scale
            scale = x * 2.0
            y = torch.mul(x, scale)
        else:
            z = scale - 1.0
            y = torch.mul(x, z)
        return y


class CaseConditionName(nn.Module):
    """A preparation assigns a name the condition reads."""

    def forward(self, x):
        s = x.sum()
        if s > 0:  # expect-decline: GM101 a preparation assigns s
            s = s * 2.0
            y = torch.mul(x, s)
        else:
            z = x * 3.0
            y = torch.mul(x, z)
        return y


class CaseLeavesBranch(nn.Module):
    """A preparation can return early."""

    def forward(self, x):
        if x.sum() > 0:  # expect-decline: GM101 a preparation can leave the branch
            if x.numel() > 8:
                return x
            y = torch.mul(x, 2.0)
        else:
            z = x * 3.0
            y = torch.mul(x, z)
        return y
