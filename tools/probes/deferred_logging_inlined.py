"""Does Dynamo replay deferred logging from a function it inlines? (issue 8's safe-fix question)

GM102's safe fix registers a logger method (or print) in
``torch._dynamo.config.reorderable_logging_functions``: Dynamo then records the call and replays
it after the graph. This script compiles a module whose root ``forward`` logs and whose submodule
(inlined by Dynamo) logs and prints, and shows what each torch version does:

- torch 2.15: the root frame's message is replayed; the submodule's message and print are
  silently dropped (only the root translator's ``debug_locals`` are replayed).
- torch 2.12: registering a Logger method does not help at all (GB0291 in the root frame too).

Run it with the Python of a torch environment, e.g. ``~/.cache/graphmend/torch-env/bin/python``.
Every message should appear once per call; the missing ones are the dropped output.
"""
import logging
import sys

import torch
import torch._dynamo as dynamo
from torch import nn

logging.basicConfig(stream=sys.stdout, level=logging.WARNING, format="LOG %(message)s")
logger = logging.getLogger("probe")
torch._dynamo.config.reorderable_logging_functions.add(logger.warning)
torch._dynamo.config.reorderable_logging_functions.add(print)


class Sub(nn.Module):
    def forward(self, x):
        logger.warning("from the inlined submodule")
        print("print from the inlined submodule")
        return x * 2


class Top(nn.Module):
    def __init__(self):
        super().__init__()
        self.sub = Sub()

    def forward(self, x):
        logger.warning("from the root frame")
        return self.sub(x) + 1


def main():
    m = Top()
    print("eager:")
    m(torch.randn(2))
    e = dynamo.explain(m)(torch.randn(2))
    print("torch", torch.__version__, "graph breaks:", e.graph_break_count)
    dynamo.reset()
    c = torch.compile(m, backend="eager", fullgraph=True)
    for i in (1, 2):
        print("compiled call", i, ":")
        c(torch.randn(2))


if __name__ == "__main__":
    main()
