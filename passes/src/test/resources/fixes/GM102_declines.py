# config: torch-version = "2.10"
"""GM102 sites where deferral is illegal (and skipping is unsafe, so nothing is applied with unsafe
fixes off): Dynamo keeps breaking there and `graphmend fix` leaves the file unchanged. The text after
the code in `# expect-decline: GM102 <reason>` is the defer fix's reason.

Calls outside the compiled frame (in a helper, or in a submodule's forward, which Dynamo inlines):
torch 2.15 records such a call as reorderable and then never replays it (checked by hand: print,
warnings.warn and logger methods are all dropped, with and without fullgraph), so deferring there
would silently lose the output.

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
    "case_print_shape": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(3, 2, seed=2),),
        lambda: (torch.zeros(4),),
    ],
    "case_warn_with_category": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.ones(2),),
    ],
    "case_logger_size_argument": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(4, 3, seed=2),),
        lambda: (torch.ones(2),),
    ],
    "case_print_sep_keyword": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.ones(2),),
    ],
    "case_warn_stacklevel": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.ones(2),),
    ],
    "case_logger_exc_info": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.ones(2),),
    ],
    "case_print_unpacked": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.ones(2),),
    ],
    "case_print_result_used": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.ones(2),),
    ],
    "case_print_in_helper": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.ones(3),),
    ],
    "CaseSubmoduleWarning": [
        lambda: (_randn(2, 4, seed=1),),
        lambda: (_randn(3, 4, seed=2),),
        lambda: (torch.zeros(1, 4),),
    ],
    "CasePrintSize": [
        lambda: (_randn(2, 4, seed=1),),
        lambda: (_randn(3, 4, seed=2),),
        lambda: (torch.zeros(1, 4),),
    ],
    "case_logger_warning_tensor_arg": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.ones(2),),
    ],
    "case_logger_error_and_warning": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (_randn(2, 3, seed=2),),
        lambda: (torch.ones(2),),
    ],
}


@torch.compile
def case_print_shape(hidden_states):
    """print of a torch.Size."""
    print(hidden_states.shape)  # expect-decline: GM102 not a tensor, a constant or a format string
    return hidden_states * 2


@torch.compile
def case_warn_with_category(x):
    """warnings.warn with a warning category held in a local variable."""
    category = FutureWarning
    warnings.warn("The `device` argument is deprecated", category)  # expect-decline: GM102 not a tensor, a constant or a format string
    return x * 3


@torch.compile
def case_logger_size_argument(x):
    """A logger argument that is a torch.Size."""
    logger.warning("unexpected shape %s", x.size())  # expect-decline: GM102 not a tensor, a constant or a format string
    return x + 1


@torch.compile
def case_print_sep_keyword(x):
    """print with `sep=`."""
    print("x", x, sep=", ")  # expect-decline: GM102 keyword arguments
    return x + 1


@torch.compile
def case_warn_stacklevel(x):
    """warnings.warn with `stacklevel=`."""
    warnings.warn("`use_cache=True` is incompatible with gradient checkpointing", stacklevel=2)  # expect-decline: GM102 keyword arguments
    return x - 1


@torch.compile
def case_logger_exc_info(x):
    """A logger call with `exc_info=`."""
    logger.warning("attention fallback", exc_info=False)  # expect-decline: GM102 keyword arguments
    return x.relu()


@torch.compile
def case_print_unpacked(x):
    """print of `*` unpacked arguments."""
    parts = ("values", x)
    print(*parts)  # expect-decline: GM102 unpacked arguments
    return x - 1


@torch.compile
def case_print_result_used(x):
    """The call's result is used (not an expression statement)."""
    status = print("step done")  # expect-decline: GM102 result is used
    return x if status is None else x * 2


@torch.compile
def case_print_in_helper(x):
    """The print sits in a helper that Dynamo inlines into the compiled frame."""
    return _report_and_scale(x) + 1


def _report_and_scale(x):
    """Helper of case_print_in_helper."""
    print("scaling", x)  # expect-decline: GM102 not in the compiled frame
    return x * 0.5


class CaseSubmoduleWarning(nn.Module):
    """A module-level logger's warning in a submodule's forward (inlined into the root's frame)."""

    def __init__(self):
        super().__init__()
        self.layer = _WarningLayer()

    def forward(self, hidden_states):
        return self.layer(hidden_states) + 1


class _WarningLayer(nn.Module):
    """Submodule of CaseSubmoduleWarning (its forward is inlined into the root's frame)."""

    def forward(self, hidden_states):
        logger.warning("falling back to %s attention", "eager")  # expect-decline: GM102 not in the compiled frame
        return hidden_states * 2


class CasePrintSize(nn.Module):
    """Module forward: print of an int from the shape and the shape itself."""

    def forward(self, hidden_states):
        print("batch", hidden_states.shape)  # expect-decline: GM102 not a tensor, a constant or a format string
        return hidden_states.tanh()


@torch.compile
def case_logger_warning_tensor_arg(x):
    """%-style logger arguments with a tensor: torch 2.15 still breaks on a deferred logger call with a tensor argument."""
    y = x.abs()
    logger.warning("abs values %s", y)  # expect-decline: GM102 logger method with a tensor argument
    return y


@torch.compile
def case_logger_error_and_warning(x):
    """A logger call whose argument is a computed tensor."""
    y = x * 2
    logger.warning("output %s", y)  # expect-decline: GM102 logger method with a tensor argument
    return y
