"""GM102 fix, defer, in a module that does not bind `torch` (it imports `torch.nn as nn` and names
from torch, as Florence-2's modeling file in transformers 5.24 does): the fix adds `import torch`
before the registration, with a blank line after it, so that the import is a block of its own that
isort (ruff's I001) accepts. The logger call's message is an f-string, so the in-graph logger call
does not apply (and it would need `torch` imported at the top); the deferral does."""
import logging

import torch.nn as nn
from torch import Generator, randn, zeros

logger = logging.getLogger(__name__)
import torch

torch._dynamo.config.reorderable_logging_functions.add(logger.warning)


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return randn(*shape, generator=Generator().manual_seed(seed))


INPUTS = {
    "CaseLoggerFString": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (zeros(3),),
    ],
}


class CaseLoggerFString(nn.Module):
    """A module-level logger's warning with an f-string of a Python value: deferred after the graph."""

    def __init__(self):
        super().__init__()
        self.layers = 2

    def forward(self, x):
        logger.warning(f"running {self.layers} layers")  # expect-fix: GM102
        return x.sigmoid()
