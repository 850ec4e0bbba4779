"""PyTorch's torch.compile tutorials (the Korean translation's repository, PyTorchKorea/tutorials-kr:
the tutorials' code as PyTorch published it, with its comments translated), each run as
``__main__`` from its source file on the CPU: the tutorials are written for one CUDA device, so
``_common.cuda_on_cpu`` keeps ``.cuda()`` on the CPU, times ``torch.cuda.Event`` with the wall
clock and answers the "GPU capability" gates."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import cuda_on_cpu, run_script  # noqa: E402


def run_tutorial(src, work, path, before=None, strip_asserts=False):
    cuda_on_cpu()
    if before:
        before()
    run_script(src, work, path, [], strip_asserts=strip_asserts)
