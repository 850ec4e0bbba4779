"""intermediate_source/torch_compile_tutorial.py ("Introduction to torch.compile"): compiled
functions and modules (``torch.compile(foo)``, ``@torch.compile``, nested calls,
``torch.compiler.disable``), a torchvision DenseNet's evaluation loop and a compiled training-step
function (``train_opt = torch.compile(train, mode="reduce-overhead")``: zero_grad, forward, loss,
backward, Adam step), then graph-break demonstrations (``f1``: a branch on ``x.sum()``, ``f3``,
``bar``, ``torch._dynamo.explain``, ``fullgraph=True``). Size: torchvision's ``densenet121`` is
replaced by a DenseNet of the same class with one layer per block and growth rate 4 (the
tutorial's 128×128 batches of 16, 10 iterations each, would take minutes per loop on a CPU at full
size). Its two asserts check measured speed-ups (``assert(speedup > 1)``), which Dynamo's eager
backend on a CPU does not give: the file is compiled without asserts (``python -O`` for that file
only; it has no other assert). The tutorial imports scipy half-way (for ``f3``); the sweep environment has none, so the
tutorial stops there, recorded as ``stopped`` with its line: ``bar`` and what follows do not run."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tutorial import run_tutorial  # noqa: E402


def small_densenet():
    import torchvision.models as models
    from torchvision.models.densenet import DenseNet

    models.densenet121 = lambda *args, **kwargs: DenseNet(growth_rate=4, block_config=(1, 1, 1, 1),
                                                          num_init_features=8, bn_size=2)


def run(src, work):
    run_tutorial(src, work, "intermediate_source/torch_compile_tutorial.py", small_densenet, strip_asserts=True)
