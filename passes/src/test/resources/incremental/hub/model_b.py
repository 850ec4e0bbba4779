# IncrementalAnalysisTest: another model of the hub package, reaching activations through a
# factory call and through a submodule, with helpers of its own.
import torch
from torch import nn

from . import activations
from .activations import get_activation


def scale(x, factor):
    if factor > 1:
        return x * factor
    return x


def pool(x):
    s = x.sum()
    if s > 0:
        return x / s
    return scale(x, 2)


class MlpB(nn.Module):
    def __init__(self, kind):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.act = get_activation(kind)
        self.clip = activations.ClippedActivation(-2.0, 2.0)

    def forward(self, x):
        h = self.act(self.fc(x))
        h = self.clip(h)
        return pool(h)


class ModelB(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = MlpB("clipped")
        self.out = nn.Linear(4, 2)

    def forward(self, x):
        h = self.mlp(x)
        if h.max().item() > 3:
            h = scale(h, 3)
        return self.out(pool(h))
