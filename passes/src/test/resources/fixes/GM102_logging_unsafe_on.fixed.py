# config: unsafe-fixes = true
"""GM102 with unsafe fixes enabled: every logger call that has the safe in-graph rewrite gets it,
although it also has the unsafe skip-while-compiling fix. Several calls in one file share the
operator's one definition, so in fix-all's first round only the first call's rewrite fits (the
others' rewrites insert the same definition); the others wait for the next round instead of
falling back to their unsafe fix, which would drop their records under torch.compile."""
import logging

import torch

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
    torch.ops.graphmend.log(__name__, "warning", "first", __file__, 48, "case_three_warnings")  # expect-fix: GM102
    y = x * 2
    torch.ops.graphmend.log(__name__, "warning", "second", __file__, 50, "case_three_warnings")  # expect-fix: GM102
    y = y + 1
    torch.ops.graphmend.log(__name__, "info", "third, below the level", __file__, 52, "case_three_warnings")  # expect-fix: GM102
    return y
