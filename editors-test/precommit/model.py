"""A scratch project's model for the pre-commit check (scripts/test-wheel): one graph break that
a safe fix removes, so graphmend-check fails before graphmend-fix and passes after it."""
import torch
from torch import nn


class Head(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.proj = nn.Linear(4, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.proj(x)
        print("logits", y)
        return y.softmax(-1)
