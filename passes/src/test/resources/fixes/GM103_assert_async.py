# config: unsafe-fixes = true
"""GM103 fix (UNSAFE: the exception type becomes RuntimeError, and on CUDA the check is
asynchronous): `if <one-element bool tensor cond>: raise E("literal")` ->
`torch._assert_async(torch.logical_not(cond), "E: literal")`. The INPUTS include inputs on which
the original raises; the fixed code must raise on them too."""
import torch
import torch.nn as nn


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


class Config:
    """A Hugging Face style config: plain Python values."""

    vocab_size = 10
    strict = True


INPUTS = {
    "case_nan_guard": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.tensor([[1.0, float("nan")], [0.0, 2.0]]),),
        lambda: (torch.zeros(2, 2),),
    ],
    "case_empty_mask_rows": [
        lambda: (_randn(2, 4, seed=1), torch.ones(2, 4)),
        lambda: (_randn(2, 4, seed=2), torch.tensor([[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]])),
        lambda: (_randn(2, 4, seed=3), torch.tensor([[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]])),
    ],
    "case_overflow_runtime_error": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.tensor([[2.0e4, 1.0], [0.0, 0.0]]),),
        lambda: (_randn(2, 3, seed=2) * 100,),
    ],
    "case_not_finite_guard": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.tensor([[float("inf"), 1.0], [0.0, 2.0]]),),
        lambda: (torch.tensor([[1.0, 1.0], [float("nan"), 2.0]]),),
    ],
    "case_negative_probabilities": [
        lambda: (torch.tensor([[0.2, 0.8], [0.5, 0.5]]),),
        lambda: (torch.tensor([[-0.1, 1.1], [0.5, 0.5]]),),
        lambda: (torch.tensor([[0.0, 1.0], [1.0, 0.0]]),),
    ],
    "case_and_of_two_guards": [
        lambda: (_randn(2, 3, seed=1).abs(), _randn(2, 3, seed=2).abs()),
        lambda: (-_randn(2, 3, seed=3).abs() - 1, -_randn(2, 3, seed=4).abs() - 1),
        lambda: (-_randn(2, 3, seed=5).abs() - 1, _randn(2, 3, seed=6).abs()),
    ],
    "case_two_guards_in_sequence": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.tensor([[float("nan"), 1.0], [0.0, 2.0]]),),
        lambda: (torch.tensor([[1.0e5, 1.0], [0.0, 2.0]]),),
    ],
    "case_guard_in_helper": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.tensor([[float("inf"), 1.0], [0.0, 2.0]]),),
        lambda: (_randn(3, 3, seed=2) * 5,),
    ],
    "case_assertion_error_class": [
        lambda: (torch.tensor([[1.0, 0.0], [0.0, 1.0]]),),
        lambda: (torch.tensor([[1.0, 2.0], [0.0, 1.0]]),),
        lambda: (torch.tensor([[0.5, 0.5], [0.5, 0.5]]),),
    ],
    "case_optional_index_sorted": [
        lambda: (_randn(4, 2, seed=1), torch.tensor([0, 0, 1, 2])),
        lambda: (_randn(4, 2, seed=2), torch.tensor([0, 2, 1, 2])),
        lambda: (_randn(4, 2, seed=3), None),
    ],
    "case_two_python_tests_first": [
        lambda: (_randn(3, 2, seed=1).abs(),),
        lambda: (torch.tensor([[1.0, -1.0], [0.0, 2.0]]),),
        lambda: (torch.tensor([[[1.0, -1.0], [0.0, 2.0]]]),),
    ],
    "case_tensor_argument_condition": [
        lambda: (_randn(2, 3, seed=1), torch.tensor(0.5)),
        lambda: (_randn(2, 3, seed=2), torch.tensor(-1.0)),
        lambda: (_randn(2, 3, seed=3), torch.tensor([2.0])),
        lambda: (_randn(2, 3, seed=4), torch.tensor([[-2.0]])),
        lambda: (_randn(2, 3, seed=5), torch.tensor([1.0, 2.0])),
        lambda: (_randn(2, 3, seed=6), torch.tensor([])),
    ],
    "case_not_of_unknown_shape": [
        lambda: (torch.tensor(3.0),),
        lambda: (torch.tensor([0.0]),),
        lambda: (torch.tensor([1.0, 2.0]),),
    ],
    "CaseEmbeddingIdGuard": [
        lambda: (torch.tensor([[1, 2, 3], [4, 5, 6]]),),
        lambda: (torch.tensor([[1, 2, 30], [4, 5, 6]]),),
        lambda: (torch.tensor([[0, 9], [9, 0]]),),
    ],
}


@torch.compile
def case_nan_guard(x):
    """Reject NaN inputs."""
    if torch.isnan(x).any():  # expect-fix: GM103 unsafe
        raise ValueError("NaN values in the input")
    return x * 2


@torch.compile
def case_empty_mask_rows(scores, attention_mask):
    """HF style: every row needs at least one attended position."""
    if (attention_mask.sum(-1) == 0).any():  # expect-fix: GM103 unsafe
        raise ValueError("attention_mask has a row with no attended position")
    return scores.masked_fill(attention_mask == 0, -1e4).softmax(-1)


@torch.compile
def case_overflow_runtime_error(hidden_states):
    """A RuntimeError guard on large activations."""
    if hidden_states.abs().max() > 1e4:  # expect-fix: GM103 unsafe
        raise RuntimeError("activations overflowed")
    return hidden_states.tanh()


@torch.compile
def case_not_finite_guard(logits):
    """`not` in the guard's condition."""
    if not torch.isfinite(logits).all():  # expect-fix: GM103 unsafe
        raise ValueError("logits must be finite")
    return logits.log_softmax(-1)


@torch.compile
def case_negative_probabilities(probs):
    """An elementwise comparison reduced with any()."""
    if (probs < 0).any():  # expect-fix: GM103 unsafe
        raise ValueError("probabilities must be non-negative")
    return probs.cumsum(-1)


@torch.compile
def case_and_of_two_guards(x, y):
    """`and` of two bool tensor reductions."""
    if x.max() < 0 and y.max() < 0:  # expect-fix: GM103 unsafe
        raise ValueError("both inputs are entirely negative")
    return x + y


@torch.compile
def case_two_guards_in_sequence(x):
    """Two guards one after the other, with different builtin exceptions."""
    if torch.isnan(x).any():  # expect-fix: GM103 unsafe
        raise ValueError("NaN in input")
    if x.abs().max() > 1e4:  # expect-fix: GM103 unsafe
        raise OverflowError("input too large")
    return x.sigmoid()


@torch.compile
def case_guard_in_helper(x):
    """The guard sits in a helper reached from the compiled function."""
    return _check_finite(x) * 2


def _check_finite(x):
    """Helper of case_guard_in_helper."""
    if torch.isinf(x).any():  # expect-fix: GM103 unsafe
        raise ValueError("inf in input")
    return x


@torch.compile
def case_assertion_error_class(matrix):
    """An AssertionError raised explicitly."""
    if (matrix.diagonal() != 1).any():  # expect-fix: GM103 unsafe
        raise AssertionError("expected a unit diagonal")
    return matrix.t()


@torch.compile
def case_optional_index_sorted(x, index):
    """torch_geometric's assert_sorted_index: a Python test first (`index is not None`), decided
    while tracing, stays an `if` around the assert."""
    if index is not None and not torch.all(index[:-1] <= index[1:]):  # expect-fix: GM103 unsafe
        raise ValueError("Can not perform aggregation since the 'index' "
                         "tensor is not sorted")
    return x * 2


@torch.compile
def case_two_python_tests_first(x):
    """Two Python operands, one of them an `or` (kept in parentheses), before the tensor test."""
    if (Config.strict or x.dim() > 2) and x.dim() == 2 and (x < 0).any():  # expect-fix: GM103 unsafe
        raise ValueError("negative values in strict mode")
    return x.relu()


@torch.compile
def case_tensor_argument_condition(x, scale):
    """The condition compares a tensor argument of unknown shape: asserted through reshape(()),
    which raises RuntimeError for other than one element, as bool() does (issue 43 item 4)."""
    if scale < 0:  # expect-fix: GM103 unsafe
        raise ValueError("scale must be non-negative")
    return x * scale


@torch.compile
def case_not_of_unknown_shape(norm):
    """`if not c: raise` with c of unknown shape: the assert takes c itself, reshaped."""
    if not norm > 0:  # expect-fix: GM103 unsafe
        raise ValueError("the norm must be positive")
    return norm.log()


class CaseEmbeddingIdGuard(nn.Module):
    """Module forward: token ids must be smaller than the vocabulary size."""

    def __init__(self):
        super().__init__()
        self.config = Config()
        self.embed = nn.Embedding(10, 4)

    def forward(self, input_ids):
        if input_ids.max() >= self.config.vocab_size:  # expect-fix: GM103 unsafe
            raise IndexError("token id out of range")
        return self.embed(input_ids)
