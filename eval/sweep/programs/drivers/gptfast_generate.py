"""gpt-fast generate.py, plain decoding (see gptfast.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gptfast import run_generate  # noqa: E402


def run(src, work):
    run_generate(src, work, "")
