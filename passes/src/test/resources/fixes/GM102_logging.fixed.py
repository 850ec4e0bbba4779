"""GM102 fix, in-graph logger call (torch 2.10 and 2.15): `logger.<method>("literal")` on a
module-level `logger = logging.getLogger(__name__)` becomes `T.ops.graphmend.log(__name__,
"<method>", "literal", __file__, <line>, "<function>")`, an ORDERED custom op that the compiled graph
calls in program order and that makes the logger call when the graph runs: the logger's level
check, filters and handlers, and a record naming this file, the call's line and function; a
method added to Logger (`warning_once`, as Hugging Face adds it) is called as it is, so it stays
once-only. The op is defined once, by a guarded block after the logger's assignment. Unlike the
deferral (GM102_defer.py) it works in frames Dynamo inlines (helpers, submodules' forward).
Observed on torch 2.10.0 and 2.15.0 (CPU) under eager, aot_eager and inductor with
`fullgraph=True`: the same records, in the same order, with the same file, line and function."""
import functools
import logging

import torch
import torch.nn as nn

logger = logging.getLogger(__name__)

if not hasattr(torch.ops.graphmend, "log"):
    # graphmend: a logger call that a compiled graph makes in program order (an ordered custom op);
    # the logger's level, filters and handlers apply when the graph runs
    @torch.library.custom_op("graphmend::log", mutates_args=())
    def _graphmend_log(name: str, method: str, msg: str, pathname: str, lineno: int, func: str) -> None:
        import logging as _logging

        logger = _logging.getLogger(name)
        if method not in ("debug", "info", "warning", "error", "critical"):
            getattr(logger, method)(msg)  # a method added to Logger, such as warning_once
        elif logger.isEnabledFor(_logging.getLevelName(method.upper())):
            level = _logging.getLevelName(method.upper())
            logger.handle(logger.makeRecord(logger.name, level, pathname, lineno, msg, (), None, func))

    _graphmend_log.register_fake(lambda *args: None)
    torch.library._register_effectful_op("graphmend::log", torch._library.effects.EffectType.ORDERED)


@functools.lru_cache(None)
def _warning_once(self, *args, **kwargs):
    """A once-only warning, added to Logger the way transformers.utils.logging adds it (not a case)."""
    self.warning(*args, **kwargs)


logging.Logger.warning_once = _warning_once


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_warning_literal": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(3, 2, seed=2),),
        lambda: (torch.zeros(1, 4),),
    ],
    "case_info_below_the_level": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(3, 2, seed=2),),
        lambda: (torch.zeros(1, 4),),
    ],
    "case_error_in_helper": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(3, 2, seed=2),),
        lambda: (torch.ones(1, 4),),
    ],
}
ARGS = {
    "CaseWarningOnceInSubmodule": lambda: (_randn(2, 4, seed=5),),
}


@torch.compile
def case_warning_literal(x):
    """A warning with a literal message, between two tensor operations."""
    y = x * 2
    torch.ops.graphmend.log(__name__, "warning", "falling back to eager attention", __file__, 77, "case_warning_literal")  # expect-fix: GM102
    return y + 1


@torch.compile
def case_info_below_the_level(x):
    """info() below the logger's effective level (WARNING): no record, eagerly or compiled."""
    torch.ops.graphmend.log(__name__, "info", "computing attention", __file__, 84, "case_info_below_the_level")  # expect-fix: GM102
    return x.relu()


@torch.compile
def case_error_in_helper(x):
    """An error() in a helper that Dynamo inlines."""
    return _scale(x) - 1


def _scale(x):
    """Helper of case_error_in_helper."""
    torch.ops.graphmend.log(__name__, "error", "scaling by a constant", __file__, 96, "_scale")  # expect-fix: GM102
    return x * 0.5


class _Attention(nn.Module):
    """Submodule of CaseWarningOnceInSubmodule, inlined into its forward."""

    def forward(self, x):
        torch.ops.graphmend.log(__name__, "warning_once", "`use_cache=True` is incompatible with gradient checkpointing", __file__, 104, "forward")  # expect-fix: GM102
        return x.softmax(-1)


class CaseWarningOnceInSubmodule(nn.Module):
    """warning_once in a submodule's forward: once-only across eager and compiled calls."""

    def __init__(self):
        super().__init__()
        self.attn = _Attention()

    def forward(self, x):
        return self.attn(x) + 1
