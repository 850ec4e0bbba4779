#!/usr/bin/env python3
"""Writes a dense Python file for the scaling benchmarks (issue 17): COPIES copies of six small
compiled modules, each with its names suffixed by the copy number, so every copy is analysed and
reported on its own. Each copy holds six graph breaks of the kinds users write (a data-dependent
`if`, a `print`, a logger call, a `raise` guard, a scalar read, a `warnings.warn`), so the file
has about six diagnostics per copy and 59 lines per copy.

Usage: python3 bench/dense_file.py COPIES OUT.py
  90 copies: about 5,300 lines, 540 diagnostics (the editor benchmark's dense file);
  170 / 850 copies: about 10k / 50k lines (the check/fix linearity benchmark).
"""

import sys

HEADER = '''"""A dense file for GraphMend's scaling benchmarks (bench/dense_file.py)."""
import logging
import warnings

import torch
import torch.nn as nn

logger = logging.getLogger(__name__)
'''

# Six small modules; {k} is the copy number. 59 lines in all.
COPY = '''

class GatedMlp{k}(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.gate = nn.Linear(8, 8)

    def forward(self, x):
        gate = self.gate(x).sigmoid()
        if x.sum() > 0:
            x = self.proj(x) * gate
        return x.relu()


@torch.compile
def scaled_{k}(x, scale):
    print("scaling", scale)
    out = x * scale
    return out


class Norm{k}(nn.Module):
    def __init__(self, dim=8, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        logger.info("norm input %s", x.shape)
        variance = x.pow(2).mean(-1, keepdim=True)
        x = x * torch.rsqrt(variance + self.eps)
        return self.weight * x


@torch.compile
def checked_{k}(x):
    if (x < 0).any():
        raise ValueError("negative input")
    return x.sqrt()


@torch.compile
def pooled_{k}(x, lengths):
    """Mean over the first max(lengths) positions."""
    n = lengths.max().item()
    return x[:, :n].mean(1)


class Legacy{k}(nn.Module):
    def forward(self, x, flag=False):
        """The old entry point, kept for callers that pass flag."""
        if flag:
            warnings.warn("flag is deprecated", FutureWarning)
        mlp = GatedMlp{k}()
        norm = Norm{k}()
        hidden = mlp(x)
        hidden = hidden + norm(x)
        return hidden
'''


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    copies = int(sys.argv[1])
    with open(sys.argv[2], "w") as f:
        f.write(HEADER)
        for k in range(copies):
            f.write(COPY.format(k=k))


if __name__ == "__main__":
    main()
