"""recipes_source/torch_compiler_set_stance_tutorial.py: ``@torch.compile`` functions under
``torch.compiler.set_stance`` (force_eager, fail_on_recompile, eager_on_recompile, a stance set
inside a compiled function) and ``torch.compiler.is_compiling()`` branches."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tutorial import run_tutorial  # noqa: E402


def run(src, work):
    run_tutorial(src, work, "recipes_source/torch_compiler_set_stance_tutorial.py")
