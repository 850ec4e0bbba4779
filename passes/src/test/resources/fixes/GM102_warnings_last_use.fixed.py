"""GM102 fix, in-graph warning where the call is the module's only use of `warnings`: the rewrite
also removes `import warnings`, which would otherwise be left unused (ruff's F401), and the
operator's definition goes after the last import (never between imports: E402, I001)."""

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


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "CaseDeprecatedPath": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(3, 3, seed=2),),
        lambda: (torch.zeros(1, 3),),
    ],
}


class CaseDeprecatedPath(nn.Module):
    """A deprecation warning in a module's forward."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 3)

    def forward(self, x):
        torch.ops.graphmend.warn("the legacy path is deprecated", "DeprecationWarning", __name__, __file__, 51)  # expect-fix: GM102
        return self.proj(x)
