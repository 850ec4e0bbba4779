"""nanoGPT's train.py: the whole training loop (train steps with gradient accumulation and
clipping, the estimate_loss evaluation loop, a checkpoint) on a 2-layer, 32-wide GPT, CPU,
float32, 2 iterations, with ``compile=True`` (train.py's own ``model = torch.compile(model)``).
Data: random tokens written as ``data/synth/{train,val}.bin`` and a ``meta.pkl`` with a
65-token vocabulary, in the work folder, the layout train.py reads."""

import os
import pickle
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import link, run_script  # noqa: E402

ARGS = ["--device=cpu", "--dtype=float32", "--compile=True", "--dataset=synth", "--n_layer=2",
        "--n_head=2", "--n_embd=32", "--block_size=32", "--batch_size=4", "--gradient_accumulation_steps=2",
        "--max_iters=2", "--eval_interval=2", "--eval_iters=2", "--log_interval=1", "--warmup_iters=1",
        "--lr_decay_iters=2", "--dropout=0.1"]


def synthetic_data(work, vocab=65, n=4096):
    folder = os.path.join(work, "data", "synth")
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(0)
    for split in ("train", "val"):
        rng.integers(0, vocab, n, dtype=np.uint16).tofile(os.path.join(folder, split + ".bin"))
    chars = [chr(ord("A") + i % 58) for i in range(vocab)]
    with open(os.path.join(folder, "meta.pkl"), "wb") as f:
        pickle.dump({"vocab_size": vocab, "itos": dict(enumerate(chars)),
                     "stoi": {c: i for i, c in enumerate(chars)}}, f)


def run(src, work):
    synthetic_data(work)
    link(os.path.join(src, "configurator.py"), os.path.join(work, "configurator.py"))
    run_script(src, work, "train.py", ARGS + ["--out_dir=" + os.path.join(work, "out")])
