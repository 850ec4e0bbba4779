# IncrementalAnalysisTest: diagnostics here depend on other functions' return values and on
# attributes assigned in other methods, so edits of those bodies must re-analyse the readers.
import torch
from torch import nn


def helper(x):
    return x * 2


def make_flag(x):
    return x.sum() > 0


def passthrough(x):
    return helper(x)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.ones(2)
        self.proj = nn.Linear(2, 2)
        self.limit = 3

    def gate(self, x):
        return self.proj(x)

    def forward(self, x):
        y = passthrough(x)
        if y.sum() > 0:
            y = y + 1
        f = make_flag(x)
        if f:
            y = y - 1
        if self.scale.max() > 1:
            y = y * 2
        if self.limit > 2:
            y = y / 2
        g = self.gate(x)
        if g.mean() > 0:
            y = y + g
        return y


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.head = nn.Linear(2, 2)

    def forward(self, x):
        z = self.block(x)
        if z.any():
            return self.head(z)
        w = helper(z)
        if w.max() > 0:
            return w
        return -z
