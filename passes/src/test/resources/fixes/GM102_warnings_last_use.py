"""GM102 fix, in-graph warning where the call is the module's only use of `warnings`: the rewrite
also removes `import warnings`, which would otherwise be left unused (ruff's F401), and the
operator's definition goes after the last import (never between imports: E402, I001)."""
import warnings

import torch
import torch.nn as nn


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "CaseDeprecatedPath": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(3, 3, seed=2),),
        lambda: (torch.zeros(1, 3),),
    ],
}


class CaseDeprecatedPath(nn.Module):
    """A deprecation warning in a module's forward."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 3)

    def forward(self, x):
        warnings.warn("the legacy path is deprecated", DeprecationWarning)  # expect-fix: GM102
        return self.proj(x)
