# config: unsafe-fixes = true
"""GM301 fix (UNSAFE: a break the analysis does not see raises at the first call under
fullgraph=True instead of splitting the graph): `@torch.compile` -> `@torch.compile(fullgraph=True)`
where every break of the root is a scalar read or a data-dependent shape, which torch 2.15 captures
into the graph under fullgraph=True. Same outputs, one graph."""
import torch


def _randn(*shape, seed=0):
    """Deterministic FP32 normal samples for INPUTS (not a case)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


INPUTS = {
    "case_mean_over_active": [
        lambda: (_randn(4, 3, seed=1), torch.tensor([1, 0, 1, 1])),
        lambda: (_randn(4, 3, seed=2), torch.tensor([1, 1, 1, 1])),
        lambda: (_randn(4, 3, seed=3), torch.tensor([0, 0, 1, 0])),
    ],
    "case_gather_selected": [
        lambda: (_randn(6, seed=1), torch.tensor([0.5, -1.0, 2.0, -0.1, 0.3, 0.0])),
        lambda: (_randn(6, seed=2), torch.tensor([-0.5, -1.0, -2.0, -0.1, -0.3, -1.0])),
        lambda: (_randn(6, seed=3), torch.tensor([1.0, 1.0, 1.0, 1.0, 1.0, 1.0])),
    ],
    "case_masked_sum": [
        lambda: (_randn(8, seed=1),),
        lambda: (torch.tensor([-1.0, -2.0, 0.0]),),
        lambda: (torch.tensor([3.0, 1.0, 2.0]),),
    ],
    "case_read_and_shape": [
        lambda: (_randn(6, seed=1),),
        lambda: (torch.tensor([1.0, -1.0, 5.0]),),
        lambda: (torch.tensor([-3.0, -1.0, -2.0]),),
    ],
    "case_fullgraph_false_turned_on": [
        lambda: (_randn(4, 3, seed=1), torch.tensor([1, 0, 1, 1])),
        lambda: (_randn(4, 3, seed=2), torch.tensor([2, 2, 2, 2])),
        lambda: (_randn(4, 3, seed=3), torch.tensor([0, 0, 0, 5])),
    ],
    "case_other_options_kept": [
        lambda: (_randn(4, 3, seed=1),),
        lambda: (torch.ones(2, 2),),
        lambda: (torch.tensor([[-1.0, 4.0]]),),
    ],
}


@torch.compile  # expect-fix: GM301 unsafe
def case_mean_over_active(x, active):
    """`.item()` of a count used as a divisor."""
    n = active.sum().item()
    return x.sum(0) / n


@torch.compile  # expect-fix: GM301 unsafe
def case_gather_selected(x, scores):
    """`nonzero()` whose indices gather: a data-dependent shape."""
    idx = (scores > 0).nonzero().squeeze(1)
    return x[idx] * 2


@torch.compile  # expect-fix: GM301 unsafe
def case_masked_sum(x):
    """A boolean mask selects, then a reduction."""
    return x[x > 0].sum()


@torch.compile  # expect-fix: GM301 unsafe
def case_read_and_shape(x):
    """A scalar read and a dynamic shape in one root."""
    m = x.max().item()
    kept = x[x > 0]
    return kept.sum() + m


@torch.compile(fullgraph=False)  # expect-fix: GM301 unsafe
def case_fullgraph_false_turned_on(x, active):
    """`fullgraph=False` becomes `fullgraph=True`."""
    n = int(active.sum())
    return x.sum(0) * n


@torch.compile(dynamic=False)  # expect-fix: GM301 unsafe
def case_other_options_kept(x):
    """The other options stay; `fullgraph=True` comes after them."""
    peak = x.abs().max().item()
    return x / (peak + 1.0)
