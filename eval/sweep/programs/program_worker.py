"""Runs one program of the sweep's programs part (``catalog.json``) and records what Dynamo did.

Run by ``run_programs.py`` in a subprocess of the sweep environment's python, once per phase:

    python eval/sweep/programs/program_worker.py --program NAME --src DIR --work DIR \
        --phase eager|dynamo --out RESULT.json

``DIR`` is the program's repository, extracted at the catalog's pinned commit into the scratch
folder; the program's *own files* (the catalog's ``own``, relative to ``DIR``, a folder standing
for its ``*.py`` files: ``own.py``) are where sites,
executed lines and traced lines are recorded. The catalog's driver (``drivers/NAME.py``, a
function ``run(src, work)``) runs the program at a tiny size on CPU: config overrides, synthetic
data, one to three steps. Programs call ``torch.compile`` themselves; the worker never adds a
compile of its own. It replaces ``torch.compile`` by a wrapper for the run (so ``@torch.compile``
decorators, ``f = torch.compile(f)`` rebindings and ``Module.compile()`` all pass through it) that
records each call (the caller's line) and:

- phase ``eager``: returns the function or module unchanged (what ``torch.compile(...,
  disable=True)`` does) and records every line of the own files that ran, under a line tracer;
  Dynamo compiles nothing, so every line the program runs is seen. A diagnostic on a line that
  never ran is not judged.
- phase ``dynamo``: calls the real ``torch.compile`` with the program's arguments except three:
  ``backend="eager"`` (Dynamo's breaks are the same whatever backend gets the graphs; inductor's
  C++ compiles would cost minutes per program on a small CPU), no ``mode``/``options`` (they
  configure inductor; ``reduce-overhead`` is CUDA graphs), and ``fullgraph=False`` (with
  ``fullgraph=True`` the first break raises and ends the program, so later ones would be lost;
  the calls that asked for it are recorded, ``fullgraph_requested``). Every break Dynamo logs is
  taken from ``InstructionTranslatorBase.log_graph_break`` through the Dynamo oracle
  (``tools/dynamo_oracle.py``'s ``Recorder``), as the library part does; a break's site is the
  innermost frame of its user stack in an own file (a break in a helper of the program is the
  helper's line), breaks with no frame in them are kept as outside the program. The own-file
  lines Dynamo's symbolic interpreter started are recorded as traced lines
  (``model_worker.TracedLines``).

The result has the shape of one library entry of the library part (``modes`` holds one mode,
``run``), so ``compare.judge`` counts it the same way.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import linecache
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
SWEEP = os.path.dirname(HERE)
sys.path.insert(0, SWEEP)
sys.path.insert(0, os.path.join(SWEEP, "..", "..", "tools"))

from model_worker import TracedLines, ranges  # noqa: E402  (after the path set-up)

sys.path.insert(0, HERE)
from own import own_files  # noqa: E402


class CompileCalls:
    """Replaces ``torch.compile`` while active: records each call, then compiles (phase dynamo,
    with the eager backend and without fullgraph) or returns the target unchanged (phase eager)."""

    def __init__(self, torch, phase, own, keep_fullgraph=False):
        self.torch, self.phase, self.own, self.keep_fullgraph = torch, phase, own, keep_fullgraph
        self.calls = []

    def caller(self):
        f = sys._getframe(2)
        while f is not None:
            name = os.path.realpath(f.f_code.co_filename)
            if name in self.own:
                return "%s:%d" % (self.own[name], f.f_lineno)
            f = f.f_back
        return "?"

    def __enter__(self):
        torch, real = self.torch, self.torch.compile
        self.real = real
        worker = self

        def compiled(model, kwargs, call):
            if worker.phase == "eager":
                return model
            call["fullgraph_requested"] = bool(kwargs.get("fullgraph"))
            kept = {k: v for k, v in kwargs.items() if k not in ("backend", "mode", "options", "fullgraph")}
            fullgraph = bool(kwargs.get("fullgraph")) and worker.keep_fullgraph
            return real(model, backend="eager", fullgraph=fullgraph, **kept)

        @functools.wraps(real)
        def compile(model=None, **kwargs):
            call = {"at": worker.caller(), "kwargs": {k: repr(v)[:60] for k, v in sorted(kwargs.items())}}
            worker.calls.append(call)
            if model is None:  # @torch.compile(...) with arguments: the decorator
                return lambda fn: compiled(fn, kwargs, call)
            return compiled(model, kwargs, call)

        torch.compile = compile
        return self

    def __exit__(self, *exc):
        self.torch.compile = self.real
        return False


class ExecutedLines:
    """The own files' lines that ran, by ``sys.settrace`` (and ``threading.settrace``)."""

    def __init__(self, own):
        self.own = own
        self.lines = {}

    def __enter__(self):
        import threading

        own, lines = self.own, self.lines

        def local(frame, event, arg):
            if event == "line":
                lines.setdefault(own[frame.f_code.co_filename], set()).add(frame.f_lineno)
            return local

        def global_trace(frame, event, arg):
            name = frame.f_code.co_filename
            if name not in own:
                real = os.path.realpath(name)
                if real not in own:
                    return None
                own[name] = own[real]
            lines.setdefault(own[name], set()).add(frame.f_lineno)
            return local

        sys.settrace(global_trace)
        threading.settrace(global_trace)
        return self

    def __exit__(self, *exc):
        import threading

        sys.settrace(None)
        threading.settrace(None)
        return False


def sites_of(torch, oracle, events, own, src):
    """Deduplicated break sites, in the library part's shape (``eval/worker.py`` explain_breaks)."""
    gb_ids = oracle.load_gb_ids(torch)

    def short(path):
        return own.get(path) or (os.path.relpath(path, src) if path.startswith(src + os.sep) else os.path.basename(path))

    sites = {}
    for frames, reason, exc in events:
        inside = [f for f in frames if f[0] in own]
        where = inside[-1] if inside else (frames[-1] if frames else ("?", 0, "?"))
        rel = own[where[0]] if inside else where[0]
        key = "%s:%s" % (rel, where[1])
        if key in sites:
            sites[key]["hits"] += 1
            continue
        gb_type = oracle.root_gb_type(exc)
        sites[key] = {
            "site": key, "file": rel, "line": where[1], "function": where[2], "in_package": bool(inside),
            "gb": gb_ids.get(gb_type or ""), "gb_type": gb_type, "reason": oracle.summarize_reason(reason, exc),
            "source": linecache.getline(where[0], where[1]).strip()[:200],
            "stack": ["%s:%s" % (short(f[0]), f[1]) for f in frames][-6:],
            "hits": 1,
        }
    return sorted(sites.values(), key=lambda s: (s["file"], s["line"]))


def stopped(res, exc, own):
    """Records a program that raised: status ``stopped``, the error and the own line it stopped
    at (what ran before it is kept and judged; what would have run after it is not)."""
    if isinstance(exc, SystemExit) and exc.code in (0, None):
        res["status"] = "ran"  # sys.exit(0): the program ended normally
        return
    res["status"] = "stopped"
    res["errors"].append("%s: %s" % (type(exc).__name__, str(exc).strip()[:400]))
    at = [f for f in traceback.extract_tb(exc.__traceback__) if os.path.realpath(f.filename) in own]
    if at:
        res["stopped_at"] = "%s:%d" % (own[os.path.realpath(at[-1].filename)], at[-1].lineno)
    traceback.print_exc()


def load_driver(path):
    spec = importlib.util.spec_from_file_location("gm_program_driver", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--program", required=True)
    ap.add_argument("--src", required=True, help="the program's repository at its pinned commit")
    ap.add_argument("--work", required=True, help="an empty folder the program may write to")
    ap.add_argument("--phase", choices=("eager", "dynamo"), required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--keep-fullgraph", action="store_true",
                    help="phase dynamo: compile with fullgraph=True where the program asks (a fixed copy: the first "
                         "break left raises and stops the program)")
    ap.add_argument("--seed", action="store_true",
                    help="seed Python's, torch's and numpy's generators first, so that two runs (a program before and "
                         "after a fix) can be compared by their output")
    ns = ap.parse_args(argv)

    with open(os.path.join(HERE, "catalog.json"), encoding="utf-8") as f:
        entry = next(p for p in json.load(f)["programs"] if p["name"] == ns.program)
    src = os.path.realpath(ns.src)
    own = {os.path.realpath(os.path.join(src, rel)): rel for rel in own_files(src, entry["own"])}
    missing = [rel for p, rel in own.items() if not os.path.isfile(p)]
    res = {"program": ns.program, "phase": ns.phase, "status": None, "errors": [], "compile_calls": []}

    def write():
        with open(ns.out + ".tmp", "w", encoding="utf-8") as f:
            json.dump(res, f, indent=1)
        os.replace(ns.out + ".tmp", ns.out)

    if missing:
        res.update(status="not run", errors=["own files missing from the checkout: %s" % ", ".join(missing)])
        write()
        return 1

    import torch
    import torch._dynamo

    torch.set_num_threads(1)
    res["torch"] = torch.__version__
    if ns.seed:
        import random

        random.seed(0)
        torch.manual_seed(0)
        try:
            import numpy

            numpy.random.seed(0)
        except ImportError:
            pass
    driver = load_driver(os.path.join(HERE, entry["driver"]))
    calls = CompileCalls(torch, ns.phase, own, keep_fullgraph=ns.keep_fullgraph)
    t0 = time.perf_counter()
    if ns.phase == "eager":
        tracer = ExecutedLines(dict(own))
        try:
            with calls, tracer:
                driver.run(src, ns.work)
            res["status"] = "ran"
        except BaseException as e:  # noqa: BLE001 - where it stopped is the result
            stopped(res, e, own)
        res["executed"] = {f: ranges(lines) for f, lines in sorted(tracer.lines.items())}
    else:
        import dynamo_oracle as oracle

        recorder = oracle.Recorder(torch)
        torch._dynamo.reset()
        torch._dynamo.utils.counters.clear()
        recorder.events = []
        traced = TracedLines(None, None, relative=lambda name: own.get(os.path.realpath(name)))
        try:
            with calls, traced:
                driver.run(src, ns.work)
            res["status"] = "ran"
        except BaseException as e:  # noqa: BLE001 - where it stopped is the result
            stopped(res, e, own)
        events, recorder.events = recorder.events, None
        counters = torch._dynamo.utils.counters
        res["counted_breaks"] = sum(counters["graph_break"].values())
        res["logged_breaks"] = len(events)
        res["unique_graphs"] = counters["stats"].get("unique_graphs", 0)
        res["frames_compiled"] = counters["stats"].get("calls_captured", 0)
        res["sites"] = sites_of(torch, oracle, events, own, src)
        res["traced"] = {f: ranges(lines) for f, lines in sorted(traced.lines.items())}
    res["compile_calls"] = calls.calls
    res["seconds"] = round(time.perf_counter() - t0, 2)
    write()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        sys.exit(1)
