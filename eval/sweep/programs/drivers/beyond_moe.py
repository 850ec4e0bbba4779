"""beyond-nanogpt's architectures/train_moe.py: a mixture-of-experts language model's training
loop (top-k routing with capacity, scatter/gather by boolean masks, z-loss and balance loss,
clipping, AdamW) with ``--compile`` (the script's own ``model = torch.compile(model)``), run as
``__main__``: 2 layers, width 64 (one head of the script's fixed head size 64), 4 experts, top-2, batch 2, sequence 64 (the data's length),
3 steps, CPU. Its data and tokenizer would be downloaded (``datasets.load_dataset`` of
TinyStories, ``GPT2Tokenizer.from_pretrained('gpt2')``): stand-ins give synthetic text and a
character tokenizer with 256 ids (``_common.stand_in_datasets``, ``StandInHFTokenizer``)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import StandInHFTokenizer, run_script, stand_in_datasets  # noqa: E402


def run(src, work):
    import transformers

    stand_in_datasets(length=64)
    transformers.GPT2Tokenizer = StandInHFTokenizer
    run_script(src, work, "architectures/train_moe.py",
               ["--compile", "--batch_size", "2", "--seq_len", "64", "--hidden_dim", "64", "--nlayers", "2",
                "--steps", "3", "--num_experts", "4", "--top_k", "2", "--mlp_mult", "2", "--verbose"])
