# config: unsafe-fixes = true
"""GM201 fix (UNSAFE: on CUDA the check is asynchronous; the `_with` form raises RuntimeError):
`torch._check_tensor_all(cond[, msg])` -> `torch._assert_async(torch.all(cond)[, "msg"])`, which
checks inside the graph instead of reading `cond` with `.item()`. The INPUTS include inputs on
which the original raises; the fixed code must raise on them too."""
import torch
import torch.nn as nn


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_positive_lengths": [
        lambda: (_randn(2, 3, seed=1), torch.tensor([1.0, 2.0, 3.0])),
        lambda: (_randn(2, 3, seed=2), torch.tensor([1.0, 0.0, 3.0])),
        lambda: (_randn(2, 3, seed=3), torch.tensor([0.5, 0.5, 0.5])),
    ],
    "case_lambda_message": [
        lambda: (_randn(2, 4, seed=1), torch.tensor([[1, 1, 0, 0], [1, 0, 0, 0]])),
        lambda: (_randn(2, 4, seed=2), torch.tensor([[1, 1, 0, 0], [0, 0, 0, 0]])),
        lambda: (_randn(2, 4, seed=3), torch.ones(2, 4, dtype=torch.long)),
    ],
    "case_string_message_keyword": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.tensor([[1.0, float("nan")], [0.0, 2.0]]),),
        lambda: (_randn(3, 3, seed=2),),
    ],
    "case_value_error_shapes": [
        lambda: (_randn(1, 6, 4, seed=1), torch.tensor([[2, 3]])),
        lambda: (_randn(1, 6, 4, seed=2), torch.tensor([[2, 2]])),
        lambda: (_randn(1, 4, 4, seed=3), torch.tensor([[2, 2]])),
    ],
    "case_runtime_error_with": [
        lambda: (_randn(2, 3, seed=1),),
        lambda: (torch.tensor([[float("inf"), 1.0], [0.0, 2.0]]),),
        lambda: (_randn(2, 2, seed=2),),
    ],
    "CaseDeformableAttention": [
        lambda: (_randn(1, 6, 4, seed=1), torch.tensor([[2, 3]])),
        lambda: (_randn(1, 6, 4, seed=2), torch.tensor([[1, 3]])),
        lambda: (_randn(1, 5, 4, seed=3), torch.tensor([[1, 5]])),
    ],
}


@torch.compile(fullgraph=True)
def case_positive_lengths(x, lengths):
    """No message: the assert keeps torch's own."""
    torch._assert_async(torch.all(lengths > 0))  # expect-fix: GM201 unsafe
    return x / lengths


@torch.compile(fullgraph=True)
def case_lambda_message(hidden_states, attention_mask):
    """A lambda returning a string literal: the literal becomes the assert's message."""
    torch._assert_async(torch.all(attention_mask.sum(-1) > 0), "every row needs a token")  # expect-fix: GM201 unsafe
    return hidden_states * attention_mask


@torch.compile(fullgraph=True)
def case_string_message_keyword(x):
    """The message as a keyword argument."""
    torch._assert_async(torch.all(~torch.isnan(x)), "NaN in the input")  # expect-fix: GM201 unsafe
    return x * 2


@torch.compile(fullgraph=True)
def case_value_error_shapes(value, spatial_shapes):
    """transformers' multi-scale attention guard: the `_with` form with ValueError."""
    torch._assert_async(  # expect-fix: GM201 unsafe
        torch.all((spatial_shapes[:, 0] * spatial_shapes[:, 1]).sum() == value.shape[1]),
        "ValueError: Make sure to align the spatial shapes with the sequence length",
    )
    return value.flatten(1)


@torch.compile(fullgraph=True)
def case_runtime_error_with(x):
    """The `_with` form with RuntimeError: no prefix in the message."""
    torch._assert_async(torch.all(torch.isfinite(x)), "not finite")  # expect-fix: GM201 unsafe
    return x.exp()


class CaseDeformableAttention(nn.Module):
    """transformers 5.x: `torch_compilable_check` calls `torch._check_tensor_all` while tracing."""

    def __init__(self):
        super().__init__()
        self.value_proj = nn.Linear(4, 4)

    def forward(self, encoder_hidden_states, spatial_shapes):
        compilable_check(
            (spatial_shapes[:, 0] * spatial_shapes[:, 1]).sum() == encoder_hidden_states.shape[1],
            "Make sure to align the spatial shapes with the sequence length of the encoder hidden states",
        )
        return self.value_proj(encoder_hidden_states)


def compilable_check(cond, msg):
    if isinstance(cond, torch.Tensor):  # the message is for the eager path, left out here
        torch._assert_async(torch.all(cond))  # expect-fix: GM201 unsafe
