"""GM102 logger calls the in-graph logger call declines (unsafe fixes off: the file stays unchanged
and Dynamo keeps breaking). All sit in a helper that Dynamo inlines, where deferral is illegal too.
The text after the code in `# expect-decline: GM102 <reason>` is part of the in-graph call's reason:
it takes one literal message (lazy %-arguments would have to pass through the operator's schema),
and not `exception`/`log`."""
import logging

import torch

logger = logging.getLogger(__name__)


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_percent_arguments": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(3, 2, seed=2),),
        lambda: (torch.zeros(1, 4),),
    ],
    "case_log_with_level": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(3, 2, seed=2),),
        lambda: (torch.zeros(1, 4),),
    ],
}


@torch.compile
def case_percent_arguments(x):
    """%-style arguments."""
    return _warn_rows(x) + 1


def _warn_rows(x):
    """Helper of case_percent_arguments."""
    logger.warning("%d rows", 3)  # expect-decline: GM102 one literal message
    return x * 2


@torch.compile
def case_log_with_level(x):
    """logger.log(level, msg)."""
    return _log_level(x) + 1


def _log_level(x):
    """Helper of case_log_with_level."""
    logger.log(logging.WARNING, "rows")  # expect-decline: GM102 is not rewritten into the graph
    return x * 3
