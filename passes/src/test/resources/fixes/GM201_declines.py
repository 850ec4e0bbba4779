# config: unsafe-fixes = true
"""GM201 tensor checks that must not be lowered to torch._assert_async (even with unsafe fixes on):
Dynamo keeps breaking at the check and `graphmend fix` leaves the case unchanged. The text after
the code in `# expect-decline: GM201 <reason>` is contained in the diagnostic's noFixReason."""
import torch


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


class ShapeMismatchError(ValueError):
    """A project-specific exception (not a builtin)."""


INPUTS = {
    "case_fstring_message": [
        lambda: (_randn(2, 3, seed=1), 3),
        lambda: (-_randn(2, 3, seed=2).abs() - 1, 3),
        lambda: (_randn(2, 3, seed=3).abs() + 1, 3),
    ],
    "case_custom_exception_class": [
        lambda: (_randn(1, 6, 4, seed=1), torch.tensor([[2, 3]])),
        lambda: (_randn(1, 6, 4, seed=2), torch.tensor([[2, 2]])),
        lambda: (_randn(1, 4, 4, seed=3), torch.tensor([[2, 2]])),
    ],
    "case_result_used": [
        lambda: (_randn(2, 3, seed=1).abs() + 1,),
        lambda: (-_randn(2, 3, seed=2).abs() - 1,),
        lambda: (_randn(3, 3, seed=3).abs() + 2,),
    ],
    "case_with_inside_try": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.tensor([[float("nan"), 1.0], [0.0, 2.0]]),),
        lambda: (_randn(2, 2, seed=2),),
    ],
}


@torch.compile
def case_fstring_message(x, n):
    """An f-string message would be formatted on every call."""
    torch._check_tensor_all(x > 0, lambda: f"expected {n} positive values")  # expect-decline: GM201 not a plain string literal
    return x.log()


@torch.compile
def case_custom_exception_class(value, spatial_shapes):
    """A project exception class: callers may catch it by name."""
    torch._check_tensor_all_with(  # expect-decline: GM201 exception class
        ShapeMismatchError, (spatial_shapes[:, 0] * spatial_shapes[:, 1]).sum() == value.shape[1]
    )
    return value.flatten(1)


@torch.compile
def case_with_inside_try(x):
    """Inside try, a changed exception type changes which handler runs."""
    try:
        torch._check_tensor_all_with(ValueError, ~torch.isnan(x))  # expect-decline: GM201 inside a try block
        ok = 1.0
    except ValueError:
        ok = 0.0
    return x * ok


@torch.compile
def case_result_used(x):
    """The call's value (None) is kept: an expression, not a statement, would change."""
    checked = torch._check_tensor_all(x > 0)  # expect-decline: GM201 result is used
    return x.log(), checked
