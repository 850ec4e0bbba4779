"""GM102 fix, in-graph warning (torch 2.10 and 2.15): `warnings.warn("literal"[, Category])` becomes
`T.ops.graphmend.warn("literal", "Category", __name__, __file__, <line>)`, an ORDERED custom op that
the compiled graph calls in program order and that issues the warning when the graph runs with
`warnings.warn_explicit`, as `warnings.warn` (stacklevel 1) issues it: the same category, message,
file and line, the module's `__warningregistry__` and the filters in force. The op is defined once
per file by a guarded block after the imports; it works in frames Dynamo inlines."""

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


class _DeprecatedShape(DeprecationWarning):
    """A project's own warning category (not a case)."""


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_warn_future": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(3, 2, seed=2),),
        lambda: (torch.zeros(1, 4),),
    ],
    "case_warn_default_category": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(3, 2, seed=2),),
        lambda: (torch.zeros(1, 4),),
    ],
    "case_warn_project_category_in_helper": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(3, 2, seed=2),),
        lambda: (torch.ones(1, 4),),
    ],
}
ARGS = {
    "CaseWarningInSubmodule": lambda: (_randn(2, 4, seed=5),),
}


@torch.compile
def case_warn_future(x):
    """A FutureWarning with a literal message, between tensor operations."""
    y = x * 2
    torch.ops.graphmend.warn("The `device` argument is deprecated and will be removed", "FutureWarning", __name__, __file__, 67)  # expect-fix: GM102
    return y + 1


@torch.compile
def case_warn_default_category(x):
    """No category: UserWarning."""
    torch.ops.graphmend.warn("`past_key_values` as a tuple is deprecated", "UserWarning", __name__, __file__, 74)  # expect-fix: GM102
    return x.relu()


@torch.compile
def case_warn_project_category_in_helper(x):
    """A category defined in the module, in a helper Dynamo inlines; stacklevel=1 spelled out."""
    return _reshape(x) - 1


def _reshape(x):
    """Helper of case_warn_project_category_in_helper."""
    torch.ops.graphmend.warn("reshaping a non-contiguous input", "_DeprecatedShape", __name__, __file__, 86)  # expect-fix: GM102
    return x * 0.5


class _Layer(nn.Module):
    """Submodule of CaseWarningInSubmodule, inlined into its forward."""

    def forward(self, x):
        torch.ops.graphmend.warn("`head_mask` is deprecated and ignored", "FutureWarning", __name__, __file__, 94)  # expect-fix: GM102
        return x.softmax(-1)


class CaseWarningInSubmodule(nn.Module):
    """A warning in a submodule's forward."""

    def __init__(self):
        super().__init__()
        self.layer = _Layer()

    def forward(self, x):
        return self.layer(x) + 1
