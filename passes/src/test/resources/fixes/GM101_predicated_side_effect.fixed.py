"""GM101 fix, predicated side effect (torch 2.10 and 2.15): `if <one-element bool tensor>:` whose
body is one `warnings.warn("literal")` or module-logger call with a literal message becomes one
call of a predicated ORDERED custom op, `T.ops.graphmend.warn_if(cond, ...)` / `log_if(cond, ...)`:
the graph computes the condition and the op warns or logs, in program order, only when it holds.
Fix-all may first rewrite the call (GM102) and then the branch around it; the plain operator's
definition then gives its place to the predicated one."""
import logging

import torch
import torch.nn as nn

if not hasattr(torch.ops.graphmend, "warn"):
    # graphmend: a warnings.warn that a compiled graph makes in program order (an ordered custom op);
    # the warning filters and the module's once-registry apply when the graph runs
    @torch.library.custom_op("graphmend::warn", mutates_args=())
    def _graphmend_warn(msg: str, category: str, module: str, filename: str, lineno: int) -> None:
        import builtins as _builtins
        import sys as _sys
        import warnings as _warnings

        scope = vars(_sys.modules[module])
        first, *rest = category.split(".")
        cls = scope[first] if first in scope else getattr(_builtins, first)
        for part in rest:
            cls = getattr(cls, part)
        registry = scope.setdefault("__warningregistry__", {})
        _warnings.warn_explicit(msg, cls, filename, lineno, module, registry, scope)

    _graphmend_warn.register_fake(lambda *args: None)
    torch.library._register_effectful_op("graphmend::warn", torch._library.effects.EffectType.ORDERED)

if not hasattr(torch.ops.graphmend, "warn_if"):
    # graphmend: a conditional warnings.warn that a compiled graph makes in program order (an ordered custom op);
    # the warning filters and the module's once-registry apply when the graph runs;
    # bool(when) is taken when the graph runs, as the if it replaces took it
    @torch.library.custom_op("graphmend::warn_if", mutates_args=())
    def _graphmend_warn_if(when: torch.Tensor, msg: str, category: str, module: str, filename: str, lineno: int) -> None:
        if not bool(when):
            return
        import builtins as _builtins
        import sys as _sys
        import warnings as _warnings

        scope = vars(_sys.modules[module])
        first, *rest = category.split(".")
        cls = scope[first] if first in scope else getattr(_builtins, first)
        for part in rest:
            cls = getattr(cls, part)
        registry = scope.setdefault("__warningregistry__", {})
        _warnings.warn_explicit(msg, cls, filename, lineno, module, registry, scope)

    _graphmend_warn_if.register_fake(lambda *args: None)
    torch.library._register_effectful_op("graphmend::warn_if", torch._library.effects.EffectType.ORDERED)

logger = logging.getLogger(__name__)

if not hasattr(torch.ops.graphmend, "log_if"):
    # graphmend: a conditional logger call that a compiled graph makes in program order (an ordered custom op);
    # the logger's level, filters and handlers apply when the graph runs;
    # bool(when) is taken when the graph runs, as the if it replaces took it
    @torch.library.custom_op("graphmend::log_if", mutates_args=())
    def _graphmend_log_if(when: torch.Tensor, name: str, method: str, msg: str, pathname: str, lineno: int, func: str) -> None:
        if not bool(when):
            return
        import logging as _logging

        logger = _logging.getLogger(name)
        if method not in ("debug", "info", "warning", "error", "critical"):
            getattr(logger, method)(msg)  # a method added to Logger, such as warning_once
        elif logger.isEnabledFor(_logging.getLevelName(method.upper())):
            level = _logging.getLevelName(method.upper())
            logger.handle(logger.makeRecord(logger.name, level, pathname, lineno, msg, (), None, func))

    _graphmend_log_if.register_fake(lambda *args: None)
    torch.library._register_effectful_op("graphmend::log_if", torch._library.effects.EffectType.ORDERED)


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_warn_when_negative": [
        lambda: (_randn(2, 3, seed=1).abs(),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.zeros(1, 4),),
    ],
    "case_log_when_nan": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.tensor([[1.0, float("nan")], [0.0, 2.0]]),),
        lambda: (torch.zeros(1, 4),),
    ],
    "case_warn_category_under_and": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.tensor([[20.0, 1.0], [0.0, 2.0]]),),
        lambda: (torch.tensor([[200.0, 1.0], [0.0, 2.0]]),),
    ],
    "case_warning_between_computations": [
        lambda: (_randn(2, 3, seed=1) * 10,),
        lambda: (_randn(2, 3, seed=2) * 0.1,),
        lambda: (torch.ones(2, 2),),
    ],
    "case_warn_on_a_tensor_argument": [
        lambda: (_randn(2, 3, seed=1), torch.tensor(0.5)),
        lambda: (_randn(2, 3, seed=2), torch.tensor([-1.0])),
        lambda: (_randn(2, 3, seed=3), torch.tensor([[2.0]])),
        lambda: (_randn(2, 3, seed=4), torch.tensor([1.0, -2.0])),
    ],
    "CaseLogInForward": [
        lambda: (_randn(2, 4, seed=1).abs(),),
        lambda: (-_randn(2, 4, seed=2).abs(),),
        lambda: (torch.zeros(2, 4),),
    ],
}


@torch.compile
def case_warn_when_negative(x):
    """A UserWarning under a reduction of a comparison."""
    torch.ops.graphmend.warn_if((x < 0).any(), "negative inputs are clamped", "UserWarning", __name__, __file__, 121)  # expect-fix: GM101  # expect-fix: GM102
    return x.clamp_min(0)


@torch.compile
def case_log_when_nan(x):
    """A module logger's warning under torch.isnan(...).any()."""
    torch.ops.graphmend.log_if(torch.isnan(x).any(), __name__, "warning", "NaN in the input; replaced by zeros", __file__, 128, "case_log_when_nan")  # expect-fix: GM101  # expect-fix: GM102
    return x.nan_to_num()


@torch.compile
def case_warn_category_under_and(x):
    """An `and` of two one-element conditions, and a warning category."""
    torch.ops.graphmend.warn_if(torch.logical_and((x > 10).any(), (x < 100).all()), "large but finite values", "RuntimeWarning", __name__, __file__, 135)  # expect-fix: GM101  # expect-fix: GM102
    return x / 10


@torch.compile
def case_warning_between_computations(x):
    """The record's place among other outputs: the warnings before and after keep their order."""
    y = x.abs().mean()
    torch.ops.graphmend.warn("before", "UserWarning", __name__, __file__, 143)  # expect-fix: GM102
    torch.ops.graphmend.log_if(y > 1, __name__, "warning", "the mean magnitude is above one", __file__, 144, "case_warning_between_computations")  # expect-fix: GM101  # expect-fix: GM102
    torch.ops.graphmend.warn("after", "UserWarning", __name__, __file__, 145)  # expect-fix: GM102
    return x / (y + 1)


@torch.compile
def case_warn_on_a_tensor_argument(x, scale):
    """A condition of unknown shape (a tensor argument compared with a number): the operator takes
    bool() of it when the graph runs, so two elements raise there as the if did."""
    torch.ops.graphmend.warn_if(scale < 0, "a negative scale flips the output", "UserWarning", __name__, __file__, 153)  # expect-fix: GM101  # expect-fix: GM102
    return x * scale


class CaseLogInForward(nn.Module):
    """Module forward: an error record when every activation is non-positive."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        h = self.proj(x).relu()
        torch.ops.graphmend.log_if((h == 0).all(), __name__, "error", "every activation is zero", __file__, 166, "forward")  # expect-fix: GM101  # expect-fix: GM102
        return h
