"""recipes_source/torch_compile_torch_function_modes.py: ``@torch.compile()`` functions under a
``BaseTorchFunctionMode`` that rewrites ``add`` to ``mul``, entered outside and inside the
compiled function."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tutorial import run_tutorial  # noqa: E402


def run(src, work):
    run_tutorial(src, work, "recipes_source/torch_compile_torch_function_modes.py")
