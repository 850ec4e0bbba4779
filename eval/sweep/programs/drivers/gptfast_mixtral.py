"""gpt-fast mixtral-moe/generate.py (mixture of experts), plain decoding with 4 experts, 2
active (see gptfast.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gptfast import TINY, run_generate  # noqa: E402


def run(src, work):
    run_generate(src, work, "mixtral-moe", tiny=dict(TINY, num_experts=4, num_activated_experts=2),
                 prompt="Hello, my name is")
