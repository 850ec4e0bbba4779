"""GM102 fixes in a project that uses TorchScript (this file names torch.jit): TorchScript may
compile its modules, so a fix writes only scriptable code there (docs/rules/GM102.md,
"TorchScript"). The in-graph warning, logging and print operators are not scriptable; the defer
fix (a module-level registration) and torch.where are. The fix oracle scripts every module case
before and after the fix: one that scripts before must script after."""
import logging
import warnings

import torch
import torch.nn as nn

logger = logging.getLogger(__name__)


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "CaseWarnInScriptableModule": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(3, 2, seed=2),),
        lambda: (torch.zeros(1, 4),),
    ],
    "CasePrintInScriptableModule": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(4, 3, seed=2),),
        lambda: (torch.ones(3),),
    ],
    "CaseWhereInScriptableModule": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (-torch.ones(2, 3),),
        lambda: (torch.ones(2, 3),),
    ],
    "CaseLogInIgnoredHelper": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(3, 2, seed=2),),
        lambda: (torch.zeros(1, 4),),
    ],
}


class CaseWarnInScriptableModule(nn.Module):
    """warnings.warn in a forward TorchScript compiles: deferred, not the in-graph operator."""

    def forward(self, x):
        warnings.warn("this module is deprecated")  # expect-fix: GM102
        return x * 2


class CasePrintInScriptableModule(nn.Module):
    """print of a literal in a forward TorchScript compiles: deferred, not torch._higher_order_ops.print."""

    def forward(self, x):
        y = x + 1
        print("forward ran")  # expect-fix: GM102
        return y


class CaseWhereInScriptableModule(nn.Module):
    """A data-dependent branch: torch.where is scriptable, so the rewrite stays."""

    def forward(self, x):
        if x.sum() > 0:  # expect-fix: GM101
            y = x * 2
        else:
            y = x - 1
        return y


class CaseLogInIgnoredHelper(nn.Module):
    """A logger call in a @torch.jit.ignore helper: TorchScript leaves it to Python, so the in-graph operator is fine."""

    def forward(self, x):
        return _ignored_log(x) + 1


@torch.jit.ignore
def _ignored_log(x: torch.Tensor) -> torch.Tensor:
    logger.warning("left to Python by TorchScript")  # expect-fix: GM102
    return x
