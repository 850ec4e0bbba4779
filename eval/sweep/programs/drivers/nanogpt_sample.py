"""nanoGPT's sample.py: the decode loop (``model.generate``: crop the context, forward, top-k,
softmax, multinomial, append) with ``--compile=True`` (sample.py's own ``model =
torch.compile(model)``), from ``init_from='resume'``: a checkpoint of a 2-layer, 32-wide GPT
(nanoGPT's model.py) saved by the driver in train.py's checkpoint format, with a ``meta.pkl``
character vocabulary, so sample.py encodes with it (it imports tiktoken at the top, which the sweep
environment lacks: a stand-in module, never called). 2 samples of 8 tokens, CPU,
float32. Note that ``generate`` is called through the compiled wrapper but calls ``self(...)`` on
the original module, so Dynamo compiles nothing here — a finding about the program itself."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import link, run_script, stand_in_modules  # noqa: E402
from nanogpt_train import synthetic_data  # noqa: E402


def run(src, work):
    import torch

    stand_in_modules("tiktoken")  # imported at the top of sample.py; meta.pkl's vocabulary is used
    synthetic_data(work)
    link(os.path.join(src, "configurator.py"), os.path.join(work, "configurator.py"))
    sys.path.insert(0, src)
    try:
        from model import GPT, GPTConfig

        args = dict(n_layer=2, n_head=2, n_embd=32, block_size=32, bias=False, vocab_size=65, dropout=0.0)
        torch.manual_seed(0)
        model = GPT(GPTConfig(**args))
        out_dir = os.path.join(work, "out")
        os.makedirs(out_dir, exist_ok=True)
        torch.save({"model": model.state_dict(), "model_args": args, "iter_num": 0, "best_val_loss": 1e9,
                    "config": {"dataset": "synth"}}, os.path.join(out_dir, "ckpt.pt"))
    finally:
        sys.path.remove(src)
    run_script(src, work, "sample.py", ["--init_from=resume", "--out_dir=" + out_dir, "--device=cpu",
                                        "--dtype=float32", "--compile=True", "--num_samples=2",
                                        "--max_new_tokens=8", "--start=AB"])
