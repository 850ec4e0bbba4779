# config: unsafe-fixes = true
"""GM102 with unsafe fixes enabled: every logger call that has the safe in-graph rewrite gets it,
although it also has the unsafe skip-while-compiling fix. Several calls in one file share the
operator's one definition, so in fix-all's first round only the first call's rewrite fits (the
others' rewrites insert the same definition); the others wait for the next round instead of
falling back to their unsafe fix, which would drop their records under torch.compile."""
import logging

import torch

logger = logging.getLogger(__name__)


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_three_warnings": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(3, 2, seed=2),),
        lambda: (torch.zeros(1, 4),),
    ],
}


@torch.compile
def case_three_warnings(x):
    """Three calls in one compiled function, each with a safe and an unsafe fix."""
    logger.warning("first")  # expect-fix: GM102
    y = x * 2
    logger.warning("second")  # expect-fix: GM102
    y = y + 1
    logger.info("third, below the level")  # expect-fix: GM102
    return y
