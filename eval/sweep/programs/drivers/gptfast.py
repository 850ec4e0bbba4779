"""gpt-fast's generate.py (pytorch-labs/gpt-fast and its mixtral-moe/ variant): ``main()`` from
the command line, as ``python generate.py --compile ...`` runs it, on a tiny model. The program
rebinds its own functions: ``decode_one_token = torch.compile(decode_one_token, mode=
"reduce-overhead", fullgraph=True)``, ``prefill = torch.compile(prefill, fullgraph=True,
dynamic=True)`` with ``--compile_prefill``, and with a draft model ``model_forward =
torch.compile(model_forward, ...)`` (speculative decoding). Sizes: a model config ``gm-tiny``
(2 layers, width 32, vocabulary 1024: the synthetic prompt draws ids below 1024) added to the program's ``transformer_configs`` and a
checkpoint of that model saved where ``--checkpoint_path`` points; a synthetic prompt
(``--prompt 8``: random token ids, generate.py's own option; mixtral-moe/generate.py takes text only, which
the stand-in tokenizer turns into ids); 4 new tokens, 1 sample after the
compile warm-up, CPU. Its tokenizer libraries (sentencepiece, tiktoken) are not in the sweep
environment: stand-in modules (``_common.stand_in_modules``), the prompt being synthetic."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import run_script, stand_in_modules  # noqa: E402

TINY = dict(block_size=64, vocab_size=1024, n_layer=2, n_head=2, dim=32, intermediate_size=64)


def run_generate(src, work, folder, extra=(), tiny=TINY, prompt="8"):
    import importlib

    import torch

    stand_in_modules("sentencepiece", "tiktoken")
    base = os.path.join(src, folder) if folder else src
    sys.path.insert(0, base)
    try:
        model = importlib.import_module("model")
        model.transformer_configs["gm-tiny"] = dict(tiny)
        torch.manual_seed(0)
        ckpt_dir = os.path.join(work, "checkpoints", "gm-tiny")
        os.makedirs(ckpt_dir, exist_ok=True)
        torch.save(model.Transformer.from_name("gm-tiny").state_dict(), os.path.join(ckpt_dir, "model.pth"))
        open(os.path.join(ckpt_dir, "tokenizer.model"), "w").close()
        ckpt = os.path.join(ckpt_dir, "model.pth")
        run_script(src, work, os.path.join(folder, "generate.py") if folder else "generate.py",
                   ["--compile", "--compile_prefill", "--prompt", prompt, "--num_samples", "1", "--max_new_tokens", "4",
                    "--top_k", "10", "--checkpoint_path", ckpt, "--device", "cpu"] + list(extra))
    finally:
        sys.path.remove(base)
