"""nanochat's pretraining step and validation loop (karpathy/nanochat, scripts/base_train.py):
base_train.py itself needs wandb, the rustbpe/tiktoken tokenizer and parquet data shards, so
this driver runs its steps on the program's own code, in its order: the model built on the meta
device, ``to_empty`` and ``init_weights``; ``model = torch.compile(model, dynamic=False)`` — the
call of base_train.py line 246, made here with the same arguments (the one compile this driver
makes itself); ``model.setup_optimizer()`` (MuonAdamW, whose step functions in nanochat/optim.py
are the program's own ``@torch.compile(dynamic=False, fullgraph=True)``); two training steps
(forward with targets, backward, the learning-rate update of the param groups, ``optimizer.step()``,
``model.zero_grad``, ``loss.item()``), then ``nanochat.loss_eval.evaluate_bpb`` on the compiled
model, as base_train.py's evaluation does. Tiny: 2 layers, width 64, 2 heads, vocabulary 256,
sequence 32, batch 2, random tokens, float32 on CPU."""

import os
import sys


def run(src, work):
    import torch

    sys.path.insert(0, src)
    os.environ.setdefault("NANOCHAT_BASE_DIR", os.path.join(work, "nanochat"))
    from nanochat.gpt import GPT, GPTConfig
    from nanochat.loss_eval import evaluate_bpb

    torch.manual_seed(0)
    config = GPTConfig(sequence_len=32, vocab_size=256, n_layer=2, n_head=2, n_kv_head=2, n_embd=64,
                       window_pattern="L")
    with torch.device("meta"):
        model = GPT(config)
    model.to_empty(device="cpu")
    model.init_weights()
    model = torch.compile(model, dynamic=False)  # scripts/base_train.py:246
    optimizer = model.setup_optimizer()

    def batch():
        x = torch.randint(0, config.vocab_size, (2, config.sequence_len))
        return x, torch.roll(x, -1, dims=1)

    for step in range(2):
        x, y = batch()
        loss = model(x, y)
        train_loss = loss.detach()
        loss.backward()
        for group in optimizer.param_groups:
            group["lr"] = group["initial_lr"] * 1.0
            if group["kind"] == "muon":
                group["momentum"] = 0.95
                group["weight_decay"] = 0.0
        optimizer.step()
        model.zero_grad(set_to_none=True)
        print("step %d loss %.4f" % (step, train_loss.item()))
    token_bytes = torch.ones(config.vocab_size, dtype=torch.int64)
    model.eval()
    print("val bpb %.4f" % evaluate_bpb(model, [batch() for _ in range(2)], 2, token_bytes))
