# config: torch-version = "2.10"
"""GM102 fix, defer: `torch._dynamo.config.reorderable_logging_functions.add(<callee>)` is inserted
once per module and callee, after the line that makes the callee available (and after
`import torch`: here, as in Hugging Face files, `import warnings` comes before `import torch`);
tensor arguments get `.clone()` so that later in-place updates do not change what is printed.
Every call here is in the compiled frame itself (a `@torch.compile` function or the compiled module's
own `forward`): torch 2.15 silently drops deferred calls made in functions it inlines (helpers,
submodules' forward), see GM102_declines.py.

`torch-version = "2.10"`: from torch 2.15 a `print` gets the in-graph print instead
(GM102_print_hop.py); the defer and skip fixes are the ones for 2.10. A logger call or
`warnings.warn` with a literal message gets the in-graph op on either version (GM102_logging.py,
GM102_warnings.py); the f-string ones here are deferred. The fix oracle passes this
file under torch 2.10 (`tools/fix_oracle.py` with `eval/sweep/env.sh 2.10.0`'s python) and 2.15
(the one CI runs)."""
import logging
import warnings

import torch
import torch.nn as nn
torch._dynamo.config.reorderable_logging_functions.add(warnings.warn)

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
torch._dynamo.config.reorderable_logging_functions.add(print)

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
    "case_print_tensor": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(3, 2, seed=2),),
        lambda: (torch.zeros(1, 4),),
    ],
    "case_print_constant_only": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2) * 5,),
        lambda: (torch.ones(2),),
    ],
    "case_print_before_inplace": [
        lambda: (torch.zeros(2, 2),),
        lambda: (_randn(2, 2, seed=1),),
        lambda: (torch.arange(4.0),),
    ],
    "case_print_fstring_of_constant": [
        lambda: (_randn(2, 3, seed=1), 0),
        lambda: (_randn(2, 3, seed=2), 3),
        lambda: (_randn(1, 3, seed=3), 11),
    ],
    "case_print_numbers_and_none": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.full((2,), 7.0),),
    ],
    "case_print_reduction": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(4, 3, seed=2),),
        lambda: (torch.ones(3),),
    ],
    "case_two_prints": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.ones(2, 3),),
    ],
    "case_logger_warning_constant": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.zeros(3),),
    ],
    "case_warnings_warn_literal": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.ones(2),),
    ],
    "case_warnings_warn_fstring": [
        lambda: (_randn(2, 3, seed=1), 2),
        lambda: (_randn(2, 3, seed=2), 5),
        lambda: (torch.ones(2), 0),
    ],
    "CaseAttentionDebugPrint": [
        lambda: (_randn(2, 4, seed=1),),
        lambda: (_randn(3, 4, seed=2),),
        lambda: (torch.zeros(1, 4),),
    ],
    "CaseDeprecatedArgumentWarning": [
        lambda: (_randn(2, 4, seed=1),),
        lambda: (_randn(3, 4, seed=2),),
        lambda: (torch.ones(1, 4),),
    ],
}


@torch.compile
def case_print_tensor(hidden_states):
    """Print a label and a tensor (the tensor is cloned)."""
    hidden_states = hidden_states * 2
    print("hidden_states", hidden_states.clone())  # expect-fix: GM102
    return hidden_states + 1


@torch.compile
def case_print_constant_only(x):
    """Print a constant string only."""
    print("computing attention")  # expect-fix: GM102
    return x.softmax(-1)


@torch.compile
def case_print_before_inplace(x):
    """The printed tensor is updated in place afterwards: the clone keeps the printed value."""
    h = x.clone()
    print("before update", h.clone())  # expect-fix: GM102
    h.add_(1.0)
    return h


@torch.compile
def case_print_fstring_of_constant(x, layer_idx):
    """An f-string of a Python int argument, then a tensor."""
    y = x.relu()
    print(f"layer {layer_idx} output", y.clone())  # expect-fix: GM102
    return y


@torch.compile
def case_print_numbers_and_none(x):
    """Constants of several types."""
    print("step", 3, 0.5, None, True)  # expect-fix: GM102
    return x - 1


@torch.compile
def case_print_reduction(x):
    """A tensor expression argument (a reduction) is cloned too."""
    print("mean", x.mean().clone())  # expect-fix: GM102
    return x * 3


@torch.compile
def case_two_prints(x):
    """Two prints in one function: one registration for the module."""
    print("start")  # expect-fix: GM102
    y = x.tanh()
    print("end", y.clone())  # expect-fix: GM102
    return y


@torch.compile
def case_logger_warning_constant(x):
    """A module-level logger's warning with a constant message: the in-graph logger call (GM102_logging.py)."""
    torch.ops.graphmend.log(__name__, "warning", "falling back to eager attention", __file__, 191, "case_logger_warning_constant")  # expect-fix: GM102
    return x.sigmoid()


@torch.compile
def case_warnings_warn_literal(x):
    """warnings.warn with one literal message."""
    torch.ops.graphmend.warn("`past_key_values` as a tuple is deprecated", "UserWarning", __name__, __file__, 198)  # expect-fix: GM102
    return x + 2


@torch.compile
def case_warnings_warn_fstring(x, num_layers):
    """warnings.warn with an f-string of a Python int."""
    warnings.warn(f"{num_layers} layers were skipped")  # expect-fix: GM102
    return x * 2


class CaseAttentionDebugPrint(nn.Module):
    """Module forward: debug print of the attention weights."""

    def __init__(self):
        super().__init__()
        self.query = nn.Linear(4, 4)

    def forward(self, hidden_states):
        q = self.query(hidden_states)
        weights = (q @ hidden_states.transpose(0, 1)).softmax(-1)
        print("attention weights", weights.clone())  # expect-fix: GM102
        return weights @ hidden_states


class CaseDeprecatedArgumentWarning(nn.Module):
    """Module forward: a deprecation warning with a constant message."""

    def forward(self, hidden_states):
        torch.ops.graphmend.warn("`head_mask` is deprecated and ignored", "UserWarning", __name__, __file__, 227)  # expect-fix: GM102
        return hidden_states * 0.5
