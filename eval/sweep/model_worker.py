"""Runs one sweep entry under real TorchDynamo and records its break sites and executed lines.

Run by ``eval/sweep/sweep.py`` in a subprocess of the sweep environment's python, one process per
model class (a crash, a hang or a memory blow-up loses that class only):

    python eval/sweep/model_worker.py --entry transformers:bert:BertModel --out RESULT.json
    python eval/sweep/model_worker.py --batch ENTRIES.txt --out-dir DIR --timeout 300

The batch form imports torch and the libraries once and forks a child per entry (``serve``): the
same isolation, without paying several seconds of imports per model.

Steps:

1. Build (``catalog.build``): the class from a small configuration, eval mode, and the inputs of
   one forward; it must run eagerly, or the entry is recorded as skipped with the reason.
2. Executed lines: the same forward, eagerly, in eval mode and again in train mode, under a line
   tracer (``sys.settrace``) that records every line of the library's own package that ran. A
   diagnostic on such a line where Dynamo found no break is a false positive.
3. Breaks: ``torch._dynamo.explain`` of the forward, in eval mode under ``no_grad`` and in train
   mode with grad enabled (dropout, layerdrop and masking paths only run in training; some breaks
   need grad), each after ``torch._dynamo.reset()``. Results recorded before 2026-12-02 ran train
   mode under ``no_grad`` (no ``grad`` key in the mode).
   Every break Dynamo logs is taken from ``InstructionTranslatorBase.log_graph_break`` through
   the project's Dynamo oracle (``tools/dynamo_oracle.py``, by way of ``eval/worker.py``'s
   ``explain_breaks``), not from ``explain``'s ``graph_break_count``, which misses a break before a
   graph's first op. A break's site is the innermost frame of its user stack inside the library's
   package (a break in a helper is the helper's line; its callers are further out on the same
   stack). A break raised while Dynamo handles an earlier one is folded into the earlier one by
   the oracle (``root_gb_type``), so it is not a site of its own; the same site logged again
   (retraces, resume functions) counts once, with ``hits``.
4. Traced lines: during the same ``explain`` runs, every line of the package Dynamo's symbolic
   interpreter started (``InstructionTranslatorBase.starts_line``). A line that ran eagerly but
   that Dynamo never traced (its frame fell back to eager after an earlier break, or a break in a
   loop made Dynamo skip the whole frame) says nothing about whether Dynamo would break there.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))


class TracedLines:
    """Records the package lines Dynamo traces, by wrapping ``starts_line`` while active."""

    def __init__(self, torch, pkg, relative=None):
        """``relative(filename)`` names a recorded file (None: not recorded); by default the
        files under ``pkg``, relative to it (the programs part passes its own files' names)."""
        from torch._dynamo import symbolic_convert

        self.cls = symbolic_convert.InstructionTranslatorBase
        self.relative = relative or (lambda name: os.path.relpath(name, pkg) if name.startswith(pkg) else None)
        self.lines = {}

    def __enter__(self):
        original = self.original = self.cls.starts_line
        lines, relative = self.lines, self.relative

        def starts_line(translator, lineno):
            rel = relative(translator.f_code.co_filename)
            if rel is not None:
                lines.setdefault(rel, set()).add(lineno)
            return original(translator, lineno)

        self.cls.starts_line = starts_line
        return self

    def __exit__(self, *exc):
        self.cls.starts_line = self.original
        return False


def ranges(lines):
    """'3-5,9' of a set of ints."""
    out, run = [], None
    for n in sorted(lines):
        if run and n == run[1] + 1:
            run[1] = n
        else:
            if run:
                out.append(run)
            run = [n, n]
    if run:
        out.append(run)
    return ",".join(str(a) if a == b else "%d-%d" % (a, b) for a, b in out)


def executed_lines(torch, model, inputs, pkg):
    """{relative file: set of lines} of the package's code that one eager forward ran."""
    seen = {}

    def local(frame, event, arg):
        if event == "line":
            seen.setdefault(frame.f_code.co_filename, set()).add(frame.f_lineno)
        return local

    def global_trace(frame, event, arg):
        if frame.f_code.co_filename.startswith(pkg):
            seen.setdefault(frame.f_code.co_filename, set()).add(frame.f_lineno)
            return local
        return None

    sys.settrace(global_trace)
    try:
        with torch.no_grad():
            model(**inputs)
    finally:
        sys.settrace(None)
    return {os.path.relpath(os.path.realpath(f), pkg): lines for f, lines in seen.items()}


def run_one(entry, out, modes):
    """Builds and measures one entry; writes its result to ``out`` (atomically, after each step)."""
    import torch
    import torch._dynamo
    import catalog
    import dynamo_oracle as oracle
    import worker as eval_worker  # eval/worker.py: explain_breaks

    torch.set_num_threads(1)
    lib = entry.split(":", 1)[0]
    pkg_dir = catalog.package_dir(lib)
    pkg = pkg_dir + os.sep
    lib_mod = sys.modules.get(lib) or __import__(lib)
    res = {"entry": entry, "lib": lib, "version": lib_mod.__version__, "torch": torch.__version__,
           "package_dir": pkg_dir, "status": None, "errors": [], "modes": {}}

    def write():
        with open(out + ".tmp", "w", encoding="utf-8") as f:
            json.dump(res, f, indent=1)
        os.replace(out + ".tmp", out)

    t0 = time.perf_counter()
    try:
        model, inputs, info = catalog.build(torch, entry)
        res["build"] = dict(info, seconds=round(time.perf_counter() - t0, 2),
                            parameters=sum(p.numel() for p in model.parameters()))
    except Exception as e:  # noqa: BLE001 - the reason is the result
        res["status"] = "skipped"
        res["reason"] = str(e)[:600]
        res["seconds"] = round(time.perf_counter() - t0, 2)
        write()
        return 0

    executed, traced = {}, {}
    for mode in modes.split(","):
        model.train(mode == "train")
        m = res["modes"][mode] = {}
        try:
            for f, lines in executed_lines(torch, model, inputs, pkg).items():
                executed.setdefault(f, set()).update(lines)
        except Exception as e:  # noqa: BLE001 - train mode may not run (e.g. needs labels)
            m["eager_error"] = "%s: %s" % (type(e).__name__, (str(e).strip().splitlines() or [""])[0][:300])
            if mode != "eval":
                m["skipped"] = True
                continue
        t1 = time.perf_counter()
        with TracedLines(torch, pkg) as tl:
            # train mode traces with grad enabled, as a training step does (`t.requires_grad = True`
            # on an intermediate breaks only then: GB8985 on torch 2.15)
            ex = eval_worker.explain_breaks(torch, oracle, model, inputs, pkg_dir, no_grad=mode != "train")
        m["grad"] = mode == "train"
        for f, lines in tl.lines.items():
            traced.setdefault(f, set()).update(lines)
        m["traced"] = {f: ranges(lines) for f, lines in sorted(tl.lines.items())}
        for s in ex["sites"]:
            s["in_package"] = s.pop("in_transformers")
        m.update(graph_count=ex.get("graph_count"), graph_break_count=ex.get("graph_break_count"),
                 counted_breaks=ex["counted_breaks"], logged_breaks=ex["logged_breaks"], error=ex["error"],
                 sites=ex["sites"], seconds=round(time.perf_counter() - t1, 2))
        if ex["error"]:
            res["errors"].append("%s explain: %s" % (mode, ex["error"]))
        write()
    res["executed"] = {f: ranges(lines) for f, lines in sorted(executed.items())}
    res["traced"] = {f: ranges(lines) for f, lines in sorted(traced.items())}
    res["status"] = "ran"
    res["seconds"] = round(time.perf_counter() - t0, 2)
    write()
    return 0


def result_path(out_dir, entry):
    return os.path.join(out_dir, entry.replace(":", "__").replace("/", "_") + ".json")


def serve(entries, out_dir, timeout, modes):
    """One forked child per entry, so the imports are paid once but each model runs (and can
    crash, hang or run out of memory) in a process of its own; a child past ``timeout`` is killed
    and what it had written is kept. Heavy imports happen here, before any fork, and no tensor
    work runs in this process (forking after torch has started its thread pools can hang)."""
    import signal

    import torch
    import torch._dynamo  # noqa: F401
    import catalog  # noqa: F401
    import dynamo_oracle  # noqa: F401
    import worker  # noqa: F401

    torch.set_num_threads(1)
    for lib in sorted({e.split(":", 1)[0] for e in entries}):
        __import__(lib)
    for entry in entries:
        out = result_path(out_dir, entry)
        log_path = out[:-5] + ".log"
        t0 = time.perf_counter()
        pid = os.fork()
        if pid == 0:  # the child
            code = 1
            try:
                fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(fd, 1)
                os.dup2(fd, 2)
                code = run_one(entry, out, modes)
            except BaseException:  # noqa: BLE001
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        status = None
        while True:
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status = os.waitstatus_to_exitcode(code)
                break
            if time.perf_counter() - t0 > timeout:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                status = "timeout"
                break
            time.sleep(0.05)
        with open(out[:-5] + ".status", "w", encoding="utf-8") as f:
            json.dump({"exit": status, "wall_s": round(time.perf_counter() - t0, 1)}, f)
        print("%s\t%s\t%.1f" % (entry, status, time.perf_counter() - t0), flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--entry", help="one entry, run in this process")
    ap.add_argument("--out", help="its result file")
    ap.add_argument("--batch", help="a file of entries, one a line, each run in a forked child")
    ap.add_argument("--out-dir", help="where the batch's results go")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per entry in a batch")
    ap.add_argument("--modes", default="eval,train")
    ns = ap.parse_args(argv)
    if ns.batch:
        with open(ns.batch, encoding="utf-8") as f:
            entries = [line.strip() for line in f if line.strip()]
        serve(entries, ns.out_dir, ns.timeout, ns.modes)
        return 0
    return run_one(ns.entry, ns.out, ns.modes)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        sys.exit(1)
