"""beyond-nanogpt's language-models/train_naive.py and train_mtp.py (``--mtp``: multi-token
prediction heads): a transformer language model's training loop (forward, cross-entropy,
backward, clipping, AdamW) with ``--compile`` (the script's own ``model = torch.compile(model)``),
run as ``__main__``: 2 layers, width 64, batch 2, sequence 64, 3 steps, CPU. Data and tokenizer as
for train_moe.py (``beyond_moe.py``): synthetic TinyStories-like text and a character tokenizer;
the batches' ``.cuda()`` stays on the CPU (``_common._Ids``). The catalog entry's first own file
is the script."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import StandInHFTokenizer, run_script, stand_in_datasets  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def run(src, work):
    import transformers

    program = os.environ["GM_PROGRAM"]
    with open(os.path.join(HERE, "..", "catalog.json"), encoding="utf-8") as f:
        script = next(p for p in json.load(f)["programs"] if p["name"] == program)["own"][0]
    stand_in_datasets(length=64)
    transformers.GPT2Tokenizer = StandInHFTokenizer
    extra = ["--mtp"] if script.endswith("train_mtp.py") else []
    run_script(src, work, script, ["--compile", "--batch_size", "2", "--seq_len", "64", "--hidden_dim", "64",
                                   "--nlayers", "2", "--steps", "3", "--verbose"] + extra)
