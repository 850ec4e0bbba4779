# config: unsafe-fixes = true; torch-version = "2.10"
"""GM102 fix, skip while compiling (UNSAFE: the output is dropped under torch.compile): the call is
wrapped in `if not torch.compiler.is_compiling():`, or, when it is all an `if` or `elif` does,
that `if` gets `and not torch.compiler.is_compiling()` (one `if`, not two nested ones: ruff's
SIM102; an `or` condition is parenthesised). Every case here has a reason that makes the
defer fix illegal, so the skip fix is the one applied.

`torch-version = "2.10"`: from torch 2.15 a `print` gets the in-graph print instead
(GM102_print_hop.py); the defer and skip fixes are the ones for 2.10. The fix oracle passes this
file under torch 2.10 (`tools/fix_oracle.py` with `eval/sweep/env.sh 2.10.0`'s python) and 2.15
(the one CI runs)."""
import logging
import warnings

import torch
import torch.nn as nn

logger = logging.getLogger(__name__)


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_skip_print_shape": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(3, 2, seed=2),),
        lambda: (torch.zeros(4),),
    ],
    "case_skip_print_keyword": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.ones(2),),
    ],
    "case_skip_print_star_args": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.ones(2),),
    ],
    "case_skip_warn_category": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.ones(2),),
    ],
    "case_skip_logger_keyword": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.ones(2),),
    ],
    "case_skip_print_dtype": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.ones(2, dtype=torch.long),),
        lambda: (torch.ones(2),),
    ],
    "case_skip_print_in_helper": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.ones(3),),
    ],
    "case_skip_only_statement_of_if": [
        lambda: (_randn(2, 3, seed=1), True),
        lambda: (_randn(2, 3, seed=2), False),
        lambda: (torch.ones(2), True),
    ],
    "case_skip_only_statement_of_elif": [
        lambda: (_randn(2, 3, seed=1), 0),
        lambda: (_randn(2, 3, seed=2), 1),
        lambda: (torch.ones(2), 2),
    ],
    "case_skip_only_statement_of_or": [
        lambda: (_randn(2, 3, seed=1), True, False),
        lambda: (_randn(2, 3, seed=2), False, False),
        lambda: (torch.ones(2), False, True),
    ],
    "case_skip_in_if_with_else": [
        lambda: (_randn(2, 3, seed=1), True),
        lambda: (_randn(2, 3, seed=2), False),
        lambda: (torch.ones(2), True),
    ],
    "CaseSkipShapeLog": [
        lambda: (_randn(2, 4, seed=1),),
        lambda: (_randn(3, 4, seed=2),),
        lambda: (torch.zeros(1, 4),),
    ],
}


@torch.compile
def case_skip_print_shape(hidden_states):
    """print of a torch.Size (Dynamo cannot reorder it: GB0296)."""
    print(hidden_states.shape)  # expect-fix: GM102 unsafe
    return hidden_states * 2


@torch.compile
def case_skip_print_keyword(x):
    """print with a keyword argument."""
    print("x", x, sep=", ")  # expect-fix: GM102 unsafe
    return x + 1


@torch.compile
def case_skip_print_star_args(x):
    """print of unpacked arguments."""
    parts = ("values", x)
    print(*parts)  # expect-fix: GM102 unsafe
    return x - 1


@torch.compile
def case_skip_warn_category(x):
    """warnings.warn with a category in a local variable (Dynamo cannot reorder it: GB0296)."""
    category = FutureWarning
    warnings.warn("The `device` argument is deprecated", category)  # expect-fix: GM102 unsafe
    return x * 3


@torch.compile
def case_skip_logger_keyword(x):
    """A logger call with a keyword argument."""
    logger.warning("unexpected input", stacklevel=2)  # expect-fix: GM102 unsafe
    return x.relu()


@torch.compile
def case_skip_print_dtype(x):
    """A dtype argument is neither a tensor, a constant nor a format string."""
    print("dtype", x.dtype)  # expect-fix: GM102 unsafe
    return x * 0.5


@torch.compile
def case_skip_print_in_helper(x):
    """A print in an inlined helper (deferring there would drop it): skipped instead."""
    return _report(x) * 2


def _report(x):
    """Helper of case_skip_print_in_helper."""
    print("scaling", x)  # expect-fix: GM102 unsafe
    return x + 1


@torch.compile
def case_skip_only_statement_of_if(x, verbose: bool):
    """The print is all the `if` does: the condition gets `and not ...is_compiling()`."""
    if verbose:
        print("shape", x.shape)  # expect-fix: GM102 unsafe
    return x + 4


@torch.compile
def case_skip_only_statement_of_elif(x, mode: int):
    """The same in an `elif`."""
    if mode == 0:
        x = x * 2
    elif mode == 1:
        print("mode 1 for", x.shape)  # expect-fix: GM102 unsafe
    return x - 4


@torch.compile
def case_skip_only_statement_of_or(x, verbose: bool, debug: bool):
    """An `or` condition is parenthesised before `and`."""
    if verbose or debug:
        print("rows", x.shape[0], sep=": ")  # expect-fix: GM102 unsafe
    return x * 4


@torch.compile
def case_skip_in_if_with_else(x, verbose: bool):
    """Not collapsed: the `if` has an `else`, so the call gets its own `if` inside it."""
    if verbose:
        print("shape", x.shape)  # expect-fix: GM102 unsafe
    else:
        x = x + 1
    return x * 5


class CaseSkipShapeLog(nn.Module):
    """Module forward: log the input size with a keyword argument."""

    def forward(self, hidden_states):
        logger.warning("input has %d rows", hidden_states.size(0), exc_info=False)  # expect-fix: GM102 unsafe
        return hidden_states.tanh()
