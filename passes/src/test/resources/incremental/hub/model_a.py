# IncrementalAnalysisTest: a model of the hub package that calls into activations and into
# helpers of its own (calls that name no definition of activations).
import torch
from torch import nn

from .activations import GELUActivation, clamp_scale, gelu_tanh, with_scale


def norm(x):
    m = x.mean()
    if m.item() > 0:
        return x - m
    return x


def residual(x, y):
    return norm(x + y)


class MlpA(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.act = GELUActivation(approximate=True)

    @with_scale
    def forward(self, x):
        h = self.act(self.fc(x))
        h = clamp_scale(h, 3)
        return residual(x, h)


class BlockA(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = MlpA()
        self.gate = nn.Linear(4, 4)

    def forward(self, x):
        g = self.gate(x)
        if g.sum() > 0:
            x = x + g
        y = gelu_tanh(self.mlp(x))
        return norm(y)


class ModelA(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([BlockA() for _ in range(2)])

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        print("model a", x.shape)
        return residual(x, x)
