# config: unsafe-fixes = true
"""GM103 guards that must not be lowered to torch._assert_async (even with unsafe fixes on): Dynamo
keeps breaking at the `if` and `graphmend fix` leaves the case unchanged. The text after the code in
`# expect-decline: GM103 <reason>` is contained in the diagnostic's noFixReason."""
import torch
import torch.nn as nn


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


class InvalidInputError(ValueError):
    """A project-specific exception (not a builtin)."""


class OverflowError(ArithmeticError):  # noqa: A001 - shadows the builtin on purpose
    """A module-level class that shadows the builtin OverflowError."""


INPUTS = {
    "case_guard_inside_try": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.tensor([[float("nan"), 1.0], [0.0, 2.0]]),),
        lambda: (torch.zeros(2, 2),),
    ],
    "case_raise_from_none": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.tensor([[float("nan"), 1.0], [0.0, 2.0]]),),
        lambda: (torch.ones(2, 2),),
    ],
    "case_custom_exception_class": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.tensor([[float("inf"), 1.0], [0.0, 2.0]]),),
        lambda: (torch.ones(2, 2),),
    ],
    "case_shadowed_builtin_exception": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.tensor([[2.0e4, 1.0], [0.0, 2.0]]),),
        lambda: (torch.ones(2, 2),),
    ],
    "case_fstring_message": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.tensor([[float("nan"), 1.0], [0.0, 2.0]]),),
        lambda: (torch.ones(3, 3),),
    ],
    "case_message_in_variable": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.tensor([[-1.0, 1.0], [0.0, 2.0]]),),
        lambda: (torch.ones(2, 2),),
    ],
    "case_unknown_shape_in_an_and": [
        lambda: (_randn(2, 3, seed=1), torch.tensor(0.5)),
        lambda: (-_randn(2, 3, seed=2).abs(), torch.tensor(-1.0)),
        lambda: (_randn(2, 3, seed=3), torch.tensor([2.0])),
    ],
    "case_count_condition": [
        lambda: (_randn(2, 3, seed=1).abs(),),
        lambda: (torch.tensor([[-1.0, 1.0], [0.0, 2.0]]),),
        lambda: (torch.ones(2, 2),),
    ],
    "CaseCustomErrorGuard": [
        lambda: (torch.tensor([[1, 2, 3], [4, 5, 6]]),),
        lambda: (torch.tensor([[1, 2, 30], [4, 5, 6]]),),
        lambda: (torch.tensor([[0, 9], [9, 0]]),),
    ],
}


@torch.compile
def case_guard_inside_try(x):
    """The guard is inside a try block whose handler catches it."""
    try:
        if torch.isnan(x).any():  # expect-decline: GM103 inside a try block
            raise ValueError("NaN values in the input")
    except ValueError:
        x = torch.nan_to_num(x)
    return x * 2


@torch.compile
def case_raise_from_none(x):
    """`raise ... from None`."""
    if torch.isnan(x).any():  # expect-decline: GM103 raise ... from
        raise ValueError("NaN values in the input") from None
    return x * 2


@torch.compile
def case_custom_exception_class(x):
    """A project-specific exception class."""
    if torch.isinf(x).any():  # expect-decline: GM103 exception class
        raise InvalidInputError("inf values in the input")
    return x + 1


@torch.compile
def case_shadowed_builtin_exception(x):
    """The builtin name OverflowError is shadowed by a module-level class."""
    if x.abs().max() > 1e4:  # expect-decline: GM103 exception class
        raise OverflowError("activations overflowed")
    return x.tanh()


@torch.compile
def case_fstring_message(x):
    """The message is an f-string."""
    if torch.isnan(x).any():  # expect-decline: GM103 not a plain string literal
        raise ValueError(f"NaN values in an input of shape {tuple(x.shape)}")
    return x * 2


@torch.compile
def case_message_in_variable(x):
    """The message is a variable."""
    message = "negative values are not allowed"
    if (x < 0).any():  # expect-decline: GM103 not a plain string literal
        raise ValueError(message)
    return x.sqrt()


@torch.compile
def case_unknown_shape_in_an_and(x, scale):
    """An `and` whose operand has an unknown shape: Python takes bool() of each operand in turn,
    which one logical_and of the two would not keep."""
    if (x < 0).any() and scale < 0:  # expect-decline: GM103 not provably one element
        raise ValueError("negative values with a negative scale")
    return x * scale


@torch.compile
def case_count_condition(x):
    """The condition is an integer count, not a bool tensor."""
    if (x < 0).sum():  # expect-decline: GM103 not a boolean tensor
        raise ValueError("negative values are not allowed")
    return x.sqrt()


class CaseCustomErrorGuard(nn.Module):
    """Module forward: a guard raising a project-specific exception."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 4)

    def forward(self, input_ids):
        if input_ids.max() >= 10:  # expect-decline: GM103 exception class
            raise InvalidInputError("token id out of range")
        return self.embed(input_ids)
