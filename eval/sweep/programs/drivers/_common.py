"""Helpers the drivers share: running a program's script as ``__main__`` with its own argv from a
working folder, and synthetic token data."""

from __future__ import annotations

import os
import runpy
import sys


def run_script(src, work, script, argv, cwd=None, strip_asserts=False):
    """Runs ``src/script`` as ``__main__`` (as ``python script ARGV`` would) from ``cwd`` (the
    work folder by default), with the script's folder first on ``sys.path``. ``strip_asserts``
    compiles the script (that file only) as ``python -O`` would, for a tutorial whose only asserts
    are on measured speed-ups, which a CPU run with Dynamo's eager backend cannot show."""
    path = os.path.join(src, script)
    old_argv, old_cwd, old_path = sys.argv, os.getcwd(), list(sys.path)
    sys.argv = [path] + list(argv)
    sys.path.insert(0, os.path.dirname(path))
    os.chdir(cwd or work)
    try:
        if strip_asserts:
            import types

            with open(path, encoding="utf-8") as f:
                code = compile(f.read(), path, "exec", optimize=1)
            main = types.ModuleType("__main__")
            main.__file__ = path
            saved_main = sys.modules["__main__"]
            sys.modules["__main__"] = main
            try:
                exec(code, main.__dict__)
            finally:
                sys.modules["__main__"] = saved_main
        else:
            runpy.run_path(path, run_name="__main__")
    finally:
        sys.argv, sys.path[:] = old_argv, old_path
        os.chdir(old_cwd)


def link(src_path, dst_path):
    """A symlink to a file of the checkout where a program opens it by a path relative to its
    working folder (nanoGPT's ``exec(open('configurator.py').read())``)."""
    os.makedirs(os.path.dirname(dst_path) or ".", exist_ok=True)
    if not os.path.lexists(dst_path):
        os.symlink(src_path, dst_path)


class StandInTokenizer:
    """A tokenizer for programs whose tokenizer library is not in the sweep environment
    (sentencepiece, tiktoken) and whose prompt the driver makes synthetic: ids in, ids out."""

    def __init__(self, *args, **kwargs):
        pass

    def encode(self, text, *args, **kwargs):
        return [3 + (ord(c) % 60) for c in text]

    def decode(self, ids, *args, **kwargs):
        return " ".join(str(i) for i in ids)

    EncodeAsIds = encode  # sentencepiece's names
    DecodeIds = decode

    def bos_id(self):
        return 1

    def eos_id(self):
        return 2


def stand_in_modules(*names):
    """Stand-in modules for tokenizer libraries a program imports but that a synthetic prompt
    does not need: ``sentencepiece.SentencePieceProcessor``, ``tiktoken`` (its loader too)."""
    import types

    for name in names:
        if name in sys.modules:
            continue
        m = types.ModuleType(name)
        m.SentencePieceProcessor = StandInTokenizer
        m.Encoding = StandInTokenizer
        m.get_encoding = lambda *a, **k: StandInTokenizer()
        sys.modules[name] = m
        if name == "tiktoken":
            load = types.ModuleType("tiktoken.load")
            load.load_tiktoken_bpe = lambda *a, **k: {}
            sys.modules["tiktoken.load"] = load
            m.load = load


class _CpuEvent:
    """``torch.cuda.Event(enable_timing=True)`` on the CPU: a wall-clock time stamp."""

    def __init__(self, *args, **kwargs):
        self.t = None

    def record(self, *args, **kwargs):
        import time

        self.t = time.perf_counter()

    def synchronize(self):
        pass

    def elapsed_time(self, end):
        return (end.t - self.t) * 1000.0


def cuda_on_cpu():
    """For a program written for one CUDA device (PyTorch's tutorials): ``.cuda()`` on tensors and
    modules stays on the CPU, ``torch.cuda.Event`` times with the wall clock,
    ``torch.cuda.synchronize`` does nothing, and ``torch.cuda.get_device_capability`` answers
    (8, 0), so a tutorial's "is torch.compile supported on this GPU" gate lets it run. Tensors
    created with ``device="cuda"`` are not redirected: programs that do that are not run."""
    import torch

    torch.Tensor.cuda = lambda self, *args, **kwargs: self
    torch.nn.Module.cuda = lambda self, *args, **kwargs: self
    torch.cuda.Event = _CpuEvent
    torch.cuda.synchronize = lambda *args, **kwargs: None
    torch.cuda.get_device_capability = lambda *args, **kwargs: (8, 0)


class _Ids:
    """Token ids a stand-in tokenizer returns: ``.to(device)`` and ``.cuda()`` keep them on the CPU
    (programs written for CUDA move their batches with ``.to('cuda')`` or ``.cuda()``)."""

    def __init__(self, tensor):
        self.tensor = tensor

    def to(self, *args, **kwargs):
        return self.tensor

    def cuda(self, *args, **kwargs):
        return self.tensor


class StandInHFTokenizer:
    """A Hugging Face tokenizer (``GPT2Tokenizer.from_pretrained('gpt2')``) for programs that would
    download one: characters to ids below ``vocab_size``, padded to the batch's longest text."""

    def __init__(self, vocab_size=256):
        self.vocab_size = vocab_size
        self.pad_token = None
        self.eos_token = "<eos>"

    @classmethod
    def from_pretrained(cls, *args, **kwargs):
        return cls()

    def __call__(self, texts, padding=True, truncation=True, max_length=512, return_tensors="pt", **kwargs):
        import torch

        rows = [[ord(c) % self.vocab_size for c in t][:max_length] for t in texts]
        width = max(len(r) for r in rows)
        ids = torch.tensor([r + [0] * (width - len(r)) for r in rows], dtype=torch.long)
        return {"input_ids": _Ids(ids), "attention_mask": _Ids(ids != 0)}


class _StreamingSplit:
    """A Hugging Face streaming dataset split of synthetic ``{"text": ...}`` records."""

    def __init__(self, n, length):
        self.n, self.length = n, length

    def shuffle(self, *args, **kwargs):
        return self

    def take(self, n):
        import random

        rng = random.Random(0)
        letters = "abcdefghijklmnopqrstuvwxyz "
        return [{"text": "".join(rng.choice(letters) for _ in range(self.length))} for _ in range(min(n, self.n))]

    def __iter__(self):
        return iter(self.take(self.n))


def stand_in_datasets(length=64):
    """A ``datasets`` module whose ``load_dataset`` returns synthetic text splits (the sweep
    environment has no ``datasets`` and no network): the program's data, not its code."""
    import types

    m = types.ModuleType("datasets")
    m.load_dataset = lambda *args, **kwargs: {"train": _StreamingSplit(1 << 16, length),
                                              "validation": _StreamingSplit(1 << 16, length)}
    sys.modules["datasets"] = m
