"""GM102 in a module that imports torch only when it is installed (`if find_spec("torch"): import
torch`, as a library with optional torch support does; transformers' utils do it with
`is_torch_available()`). The in-graph logger call needs the graphmend::log operator defined at module
level, at import time, where torch may be missing: declined, and no `import torch` is added (that
would make the module need torch). Unsafe fixes off: the file stays unchanged. The logger call sits
in a helper that Dynamo inlines, where deferral is illegal too."""
import importlib.util
import logging

if importlib.util.find_spec("torch") is not None:
    import torch

logger = logging.getLogger(__name__)


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_warning_in_helper": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(3, 2, seed=2),),
        lambda: (torch.zeros(1, 4),),
    ],
}


@torch.compile
def case_warning_in_helper(x):
    """A module-level logger's warning in an inlined helper."""
    return _warn(x) + 1


def _warn(x):
    """Helper of case_warning_in_helper."""
    logger.warning("rows")  # expect-decline: GM102 not imported unconditionally at module level
    return x * 2
