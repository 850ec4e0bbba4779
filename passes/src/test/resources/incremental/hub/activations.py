# IncrementalAnalysisTest: the shared module of the hub package; its functions are reached only
# through the models that import it, with the values their calls pass.
import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)


def clamp_scale(x, limit):
    if limit > 2:
        return x * 2
    return x


def gelu_tanh(x):
    y = x * 0.5
    if y.sum() > 0:
        y = y + 1
    return y


def with_scale(forward):
    def wrapper(self, x):
        if x.mean() > 0:
            x = x * 2
        return forward(self, x)

    return wrapper


class GELUActivation(nn.Module):
    def __init__(self, approximate=False):
        super().__init__()
        self.approximate = approximate

    def forward(self, x):
        if self.approximate:
            return gelu_tanh(x)
        print("gelu", x.shape)
        return torch.nn.functional.gelu(x)


class ClippedActivation(nn.Module):
    def __init__(self, low, high):
        super().__init__()
        self.low = low
        self.high = high

    def forward(self, x):
        if x.max() > self.high:
            logger.warning("clipping")
        return torch.clamp(x, self.low, self.high)


def get_activation(name):
    if name == "clipped":
        return ClippedActivation(-1.0, 1.0)
    return GELUActivation()
