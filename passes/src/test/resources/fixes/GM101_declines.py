"""GM101 sites where no torch.where rewrite is legal: Dynamo keeps breaking there, `graphmend fix`
must leave the case unchanged, and the diagnostic's noFixReason contains the text after the code
in `# expect-decline: GM101 <reason>`."""
import torch
import torch.nn as nn


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


class Config:
    """A Hugging Face style config: plain Python values."""

    use_cache = True
    hidden_size = 4


def custom_activation(x):
    """A user function: calls to it are not provably pure (not a case)."""
    return x * torch.sigmoid(x)


INPUTS = {
    # condition is not a boolean tensor
    "case_float_sum_truthiness": [
        lambda: (_randn(2, 4, seed=1),),
        lambda: (torch.zeros(2, 4),),
        lambda: (_randn(2, 4, seed=2) * 3,),
    ],
    "case_count_of_negatives": [
        lambda: (_randn(2, 4, seed=1),),
        lambda: (_randn(2, 4, seed=2).abs(),),
        lambda: (-_randn(2, 4, seed=3).abs(),),
    ],
    "case_and_with_python_flag": [
        lambda: (_randn(2, 4, seed=1).abs(), True),
        lambda: (-_randn(2, 4, seed=2).abs(), True),
        lambda: (_randn(2, 4, seed=3).abs(), False),
    ],
    # not provably one element / may have more than one dimension
    "case_temperature_tensor_argument": [
        lambda: (_randn(2, 4, seed=1), torch.tensor(2.0)),
        lambda: (_randn(2, 4, seed=2), torch.tensor(0.5)),
        lambda: (_randn(2, 4, seed=3), torch.tensor([1.5])),
    ],
    "case_first_element_of_unknown_rank": [
        lambda: (torch.tensor([[1.0, -2.0], [3.0, 4.0]]),),
        lambda: (torch.tensor([[-1.0, 2.0], [3.0, 4.0]]),),
        lambda: (torch.tensor([[0.0, 2.0], [-3.0, 4.0]]),),
    ],
    "case_reduction_over_last_dim": [
        lambda: (_randn(4, seed=1).abs(),),
        lambda: (-_randn(4, seed=2).abs(),),
        lambda: (_randn(4, seed=3),),
    ],
    # not a tensor or a number
    "case_drop_all_ones_mask": [
        lambda: (_randn(2, 4, seed=1), torch.ones(2, 4)),
        lambda: (_randn(2, 4, seed=2), torch.tensor([[1.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])),
        lambda: (_randn(2, 4, seed=3), torch.zeros(2, 4)),
    ],
    "case_return_tuples": [
        lambda: (_randn(2, 4, seed=1).abs(),),
        lambda: (-_randn(2, 4, seed=2).abs(),),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "case_string_mode": [
        lambda: (_randn(2, 4, seed=1) * 10,),
        lambda: (_randn(2, 4, seed=2) * 0.1,),
        lambda: (_randn(2, 4, seed=3),),
    ],
    # has side effects or may raise
    "CaseProjectOnlyWhenLarge": [
        lambda: (_randn(2, 4, seed=1) * 10,),
        lambda: (_randn(2, 4, seed=2) * 0.1,),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "case_user_function_branch": [
        lambda: (_randn(2, 4, seed=1) + 1,),
        lambda: (_randn(2, 4, seed=2) - 1,),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "case_inplace_method_branch": [
        lambda: (_randn(2, 4, seed=1).abs(),),
        lambda: (-_randn(2, 4, seed=2).abs(),),
        lambda: (_randn(2, 4, seed=3),),
    ],
    # assign different names
    "case_different_targets": [
        lambda: (_randn(2, 4, seed=1).abs(),),
        lambda: (-_randn(2, 4, seed=2).abs(),),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "case_extra_target_on_one_side": [
        lambda: (_randn(2, 4, seed=1) * 10,),
        lambda: (_randn(2, 4, seed=2) * 0.1,),
        lambda: (_randn(2, 4, seed=3),),
    ],
    # more than assignments
    "case_loop_in_branch": [
        lambda: (_randn(2, 4, seed=1) * 10,),
        lambda: (_randn(2, 4, seed=2) * 0.1,),
        lambda: (_randn(2, 4, seed=3) * 3,),
    ],
    "case_static_if_in_branch": [
        lambda: (_randn(2, 4, seed=1).abs(),),
        lambda: (-_randn(2, 4, seed=2).abs(),),
        lambda: (_randn(2, 3, 4, seed=3).abs(),),
    ],
    "case_nested_if_under_unprovable_condition": [
        lambda: (_randn(2, 4, seed=1).abs(),),
        lambda: (-_randn(2, 4, seed=2).abs(),),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "case_mixed_assign_and_return": [
        lambda: (_randn(2, 4, seed=1).abs(),),
        lambda: (-_randn(2, 4, seed=2).abs(),),
        lambda: (_randn(2, 4, seed=3),),
    ],
    # no value before the if
    "case_only_defined_in_branch": [
        lambda: (_randn(2, 4, seed=1) * 10,),
        lambda: (_randn(2, 4, seed=2) * 0.1,),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "CaseCacheOnlyWhenConfigured": [
        lambda: (_randn(2, 4, seed=1) * 10,),
        lambda: (_randn(2, 4, seed=2) * 0.1,),
        lambda: (_randn(2, 4, seed=3),),
    ],
    # may have different shapes
    "case_keepdim_reduction_branch": [
        lambda: (_randn(2, 4, seed=1).abs(),),
        lambda: (-_randn(2, 4, seed=2).abs(),),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "case_two_unrelated_tensors": [
        lambda: (_randn(2, 4, seed=1).abs(), _randn(2, 4, seed=2)),
        lambda: (-_randn(2, 4, seed=3).abs(), _randn(2, 4, seed=4)),
        lambda: (_randn(2, 4, seed=5), _randn(2, 4, seed=6)),
    ],
    "case_transpose_branch": [
        lambda: (_randn(3, 3, seed=1).abs(),),
        lambda: (-_randn(3, 3, seed=2).abs(),),
        lambda: (_randn(3, 3, seed=3),),
    ],
    # reads a name the same branch assigns
    "case_chained_branch_assignments": [
        lambda: (_randn(2, 4, seed=1).abs(),),
        lambda: (-_randn(2, 4, seed=2).abs(),),
        lambda: (_randn(2, 4, seed=3),),
    ],
    "case_update_reads_earlier_target": [
        lambda: (_randn(2, 4, seed=1) * 10, _randn(2, 4, seed=2)),
        lambda: (_randn(2, 4, seed=3) * 0.1, _randn(2, 4, seed=4)),
        lambda: (_randn(2, 4, seed=5), _randn(2, 4, seed=6)),
    ],
    # different dtypes (torch.where would promote: not listed by the lead, proposed)
    "case_half_on_one_side": [
        lambda: (_randn(2, 4, seed=1) * 10,),
        lambda: (_randn(2, 4, seed=2) * 0.1,),
        lambda: (_randn(2, 4, seed=3),),
    ],
}


@torch.compile
def case_float_sum_truthiness(x):
    """Truthiness of a float reduction (not a bool tensor)."""
    if x.sum():  # expect-decline: GM101 condition is not a boolean tensor
        x = x * 2.0
    else:
        x = x + 1.0
    return x


@torch.compile
def case_count_of_negatives(x):
    """Truthiness of an integer count of negative values."""
    if (x < 0).sum():  # expect-decline: GM101 condition is not a boolean tensor
        x = x.abs()
    return x


@torch.compile
def case_and_with_python_flag(x, apply_relu):
    """`and` of a bool tensor with a Python bool argument."""
    if x.mean() > 0 and apply_relu:  # expect-decline: GM101 condition is not a boolean tensor
        x = x.relu()
    return x


@torch.compile
def case_temperature_tensor_argument(logits, temperature):
    """A comparison of a tensor argument of unknown shape."""
    if temperature > 1.0:  # expect-decline: GM101 not provably one element
        logits = logits * 0.5
    return logits


@torch.compile
def case_first_element_of_unknown_rank(x):
    """Indexing an argument of unknown rank with two indices."""
    if x[0, 0] > 0:  # expect-decline: GM101 may have more than one dimension
        x = x * 2.0
    return x


@torch.compile
def case_reduction_over_last_dim(scores):
    """A reduction over one dimension of an argument of unknown rank."""
    if scores.sum(-1) > 0:  # expect-decline: GM101 may have more than one dimension
        scores = scores * 0.5
    return scores


@torch.compile
def case_drop_all_ones_mask(scores, attention_mask):
    """HF: an all-ones attention mask is dropped (None is not a tensor)."""
    if (attention_mask == 1).all():  # expect-decline: GM101 not a tensor or a number
        attention_mask = None
    if attention_mask is None:
        return scores
    return scores + attention_mask


@torch.compile
def case_return_tuples(x):
    """Both branches return tuples."""
    if x.sum() > 0:  # expect-decline: GM101 not a tensor or a number
        return x * 2, x
    else:
        return x, x * 2


@torch.compile
def case_string_mode(x):
    """The branches assign strings."""
    if x.abs().max() > 5.0:  # expect-decline: GM101 not a tensor or a number
        mode = "clip"
    else:
        mode = "keep"
    return x.clamp(-5.0, 5.0) if mode == "clip" else x


class CaseProjectOnlyWhenLarge(nn.Module):
    """A submodule call in a branch (module calls are not provably pure)."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, hidden_states):
        if hidden_states.abs().max() > 5.0:  # expect-decline: GM101 has side effects or may raise
            hidden_states = self.proj(hidden_states)
        else:
            hidden_states = hidden_states * 1.0
        return hidden_states


@torch.compile
def case_user_function_branch(x):
    """A call to a user function in a branch."""
    if x.mean() > 0:  # expect-decline: GM101 has side effects or may raise
        y = custom_activation(x)
    else:
        y = x
    return y


@torch.compile
def case_inplace_method_branch(x):
    """An in-place method in a branch mutates its receiver."""
    h = x * 1.0
    if h.sum() > 0:  # expect-decline: GM101 has side effects or may raise
        h = h.mul_(0.5)
    return h


@torch.compile
def case_different_targets(x):
    """The two branches assign different names."""
    hidden = x
    residual = x
    if x.sum() > 0:  # expect-decline: GM101 assign different names
        hidden = hidden * 2.0
    else:
        residual = residual * 2.0
    return hidden + residual


@torch.compile
def case_extra_target_on_one_side(x):
    """One branch assigns an extra name."""
    scale = x * 0.0
    if x.abs().max() > 5.0:  # expect-decline: GM101 assign different names
        x = x * 0.1
        scale = scale + 1.0
    else:
        x = x * 1.0
    return x + scale


@torch.compile
def case_loop_in_branch(x):
    """A for loop in a branch."""
    if x.abs().max() > 5.0:  # expect-decline: GM101 more than assignments
        for _ in range(2):
            x = x * 0.5
    else:
        x = x * 1.0
    return x


@torch.compile
def case_static_if_in_branch(x):
    """A (static) nested if in a branch."""
    if x.sum() > 0:  # expect-decline: GM101 more than assignments
        if x.dim() == 3:
            x = x.flatten(1)
        x = x * 2.0
    return x


@torch.compile
def case_nested_if_under_unprovable_condition(x):
    """A nested if in a branch, under a condition not provably one element: the branch is the reason given."""
    if x[0].sum(-1) > 0:  # expect-decline: GM101 more than assignments
        if x.dim() == 3:
            x = x.flatten(1)
        x = x * 2.0
    return x


@torch.compile
def case_mixed_assign_and_return(x):
    """One branch assigns, the other returns."""
    if x.sum() > 0:  # expect-decline: GM101 more than assignments
        x = x * 2.0
    else:
        return x
    return x + 1.0


@torch.compile
def case_only_defined_in_branch(x):
    """An else-less assignment to a name that has no value before the if (dead afterwards)."""
    if x.abs().max() > 5.0:  # expect-decline: GM101 no value before the if
        overflow_scale = x.abs().max()
    return x * 2.0


class CaseCacheOnlyWhenConfigured(nn.Module):
    """The updated name is bound only under a config flag, so it may have no value before the if."""

    def __init__(self):
        super().__init__()
        self.config = Config()

    def forward(self, hidden_states):
        if self.config.use_cache:
            cache = hidden_states * 1.0
        if hidden_states.abs().max() > 5.0:  # expect-decline: GM101 no value before the if
            cache = cache * 0.1
        return hidden_states + cache


@torch.compile
def case_keepdim_reduction_branch(x):
    """One side is a keepdim reduction of x, the other is x."""
    if x.sum() > 0:  # expect-decline: GM101 may have different shapes
        y = x.sum(-1, keepdim=True)
    else:
        y = x
    return y * 2.0


@torch.compile
def case_two_unrelated_tensors(x, y):
    """The branches pick one of two arguments of unknown shapes."""
    if x.sum() > 0:  # expect-decline: GM101 may have different shapes
        out = x
    else:
        out = y
    return out


@torch.compile
def case_transpose_branch(x):
    """One side transposes the tensor."""
    if x.sum() > 0:  # expect-decline: GM101 may have different shapes
        return x.t()
    return x


@torch.compile
def case_chained_branch_assignments(x):
    """The second assignment of a branch reads the first one's target."""
    if x.sum() > 0:  # expect-decline: GM101 reads a name the same branch assigns
        h = x * 2.0
        y = h + 1.0
    else:
        h = x - 1.0
        y = h * 3.0
    return y


@torch.compile
def case_update_reads_earlier_target(hidden_states, residual):
    """An else-less update whose second assignment reads the first target."""
    if hidden_states.abs().max() > 5.0:  # expect-decline: GM101 reads a name the same branch assigns
        hidden_states = hidden_states * 0.1
        residual = residual + hidden_states
    return hidden_states + residual


@torch.compile
def case_half_on_one_side(x):
    """One side changes the dtype (torch.where would promote the result to float32)."""
    if x.abs().max() > 5.0:  # expect-decline: GM101 may have different dtypes
        x = x.half()
    return x
