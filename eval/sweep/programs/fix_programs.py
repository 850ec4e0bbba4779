#!/usr/bin/env python3
"""The programs part of the sweep's fix rate: how many of the programs' graph breaks `graphmend fix`
removes, the program compiled as its own (fixed) source says.

    python3 eval/sweep/programs/fix_programs.py --python SWEEP_ENV_PYTHON [--programs a,b]

For each program of ``catalog.json`` whose recorded run (``out/programs-torch-VERSION/NAME.json``,
from ``run_programs.py``) logged a graph break:

1. its checkout (``run_programs.checkout``) is copied, per variant, to
   ``SCRATCH/fixed-VARIANT/``, and ``graphmend fix`` (``safe``) or ``graphmend fix --unsafe-fixes``
   (``unsafe``) runs there on the program's own files, with the programs' own ``torch.compile``
   calls as the compile roots (``--assume-compiled explicit``): so GM301 may write
   ``fullgraph=True`` at a call;
2. ``program_worker.py`` runs the program's driver under real Dynamo (phase ``dynamo``, backend
   "eager") with Python's, torch's and numpy's generators seeded: the original once, as the sweep
   runs it, and each fixed copy with ``--keep-fullgraph``, so a call the fix (or the program) marks
   ``fullgraph=True`` is compiled so, and a break left there raises and stops the program;
3. the program's standard output (its losses, samples, checks) is compared line for line with the
   original's, on the lines that two seeded runs of the original print alike (what differs between
   them, a step's wall time, is no result of the computation; ``stable_lines``).

``out/programs-torch-VERSION/fix.json`` has, per program and variant, what the fix changed, the
graph breaks (Dynamo's ``graph_break`` counter) and graphs before and after, the status, and whether
the output is the same; ``eval/report.py`` adds a *programs* row to the sweep's fix table. A program
that stops after a fix counts with its breaks before, and is listed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SWEEP = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(SWEEP))
sys.path.insert(0, SWEEP)
sys.path.insert(0, HERE)
import compare  # noqa: E402  (graphmend_command)
import fix_sweep  # noqa: E402  (torch_version)
import run_programs  # noqa: E402  (load_catalog, checkout, SCRATCH)
from own import own_files  # noqa: E402

VARIANTS = {"safe": [], "unsafe": ["--unsafe-fixes"]}


def stable_lines(first, second):
    """The indexes of the output lines two runs of the same program print alike, or None when the
    runs print different numbers of lines (then the output is not compared)."""
    a, b = first.splitlines(), second.splitlines()
    if len(a) != len(b):
        return None
    return [i for i, (x, y) in enumerate(zip(a, b)) if x == y]


def first_difference(reference, stable, text):
    """None when ``text`` prints the reference's stable lines, and as many lines; else the first
    difference, as [reference's line, text's line] (or the line counts)."""
    ref, got = reference.splitlines(), text.splitlines()
    if stable is None or len(ref) != len(got):
        return ["%d lines" % len(ref), "%d lines" % len(got)]
    for i in stable:
        if ref[i] != got[i]:
            return [ref[i][:200], got[i][:200]]
    return None


def run_worker(py, program, src, keep_fullgraph, timeout):
    """One seeded dynamo run of the program at ``src``: the worker's result and the program's stdout."""
    work = tempfile.mkdtemp(prefix="gm-program-fix-%s-" % program["name"])
    out = os.path.join(work, "result.json")
    env = dict(os.environ, GM_PROGRAM=program["name"], PYTHONHASHSEED="0", CUDA_VISIBLE_DEVICES="", OMP_NUM_THREADS="1",
               MPLBACKEND="Agg", HF_HUB_OFFLINE="1", WANDB_MODE="disabled")
    cmd = [py, os.path.join(HERE, "program_worker.py"), "--program", program["name"], "--src", src,
           "--work", os.path.join(work, "w"), "--phase", "dynamo", "--seed", "--out", out]
    if keep_fullgraph:
        cmd.append("--keep-fullgraph")
    os.makedirs(os.path.join(work, "w"))
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
        stdout, code = proc.stdout, proc.returncode
    except subprocess.TimeoutExpired as e:
        stdout, code = (e.stdout or b"").decode("utf-8", "replace") if isinstance(e.stdout, bytes) else (e.stdout or ""), "timeout"
    try:
        with open(out, encoding="utf-8") as f:
            res = json.load(f)
    except (OSError, ValueError):
        res = {"status": "crashed", "errors": ["no result (exit %s)" % code]}
    shutil.rmtree(work, ignore_errors=True)
    if code == "timeout":
        res["status"] = "timeout"
    return res, stdout


def fix_copy(src, dest, own, flags, torch_version):
    """Copies the checkout to ``dest`` and runs ``graphmend fix`` on the program's own files there."""
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("__pycache__", ".gm-extracted"))
    cmd = compare.graphmend_command() + ["fix", "--no-config", "--torch-version", ".".join(torch_version.split(".")[:2]),
                                         "--assume-compiled", "explicit", *flags, *own]
    proc = subprocess.run(cmd, cwd=dest, capture_output=True, text=True, timeout=1800)
    changed = []
    for rel in own:
        with open(os.path.join(src, rel), encoding="utf-8", errors="replace") as a, \
                open(os.path.join(dest, rel), encoding="utf-8", errors="replace") as b:
            if a.read() != b.read():
                changed.append(rel)
    return {"rc": proc.returncode, "summary": (proc.stdout.strip().splitlines() or [""])[-1],
            "fixed": [l for l in proc.stdout.splitlines() if " fixed: " in l], "changed": changed}


def summary_of(res):
    return {"status": res.get("status"), "errors": (res.get("errors") or [])[:2],
            "breaks": res.get("counted_breaks"), "logged": res.get("logged_breaks"),
            "graphs": res.get("unique_graphs"), "sites": len(res.get("sites") or [])}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", required=True, help="the sweep environment's python (eval/sweep/env.sh)")
    ap.add_argument("--programs", default="", help="only these programs (comma-separated names)")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per program and run")
    ns = ap.parse_args(argv)
    torch_version = fix_sweep.torch_version(ns.python)
    results = os.path.join(SWEEP, "out", "programs-torch-%s" % torch_version)
    wanted = {p for p in ns.programs.split(",") if p}
    report = {"torch": torch_version, "generated": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "programs": {}}
    t_all = time.time()
    for program in run_programs.load_catalog():
        name = program["name"]
        if wanted and name not in wanted:
            continue
        path = os.path.join(results, name + ".json")
        if not os.path.isfile(path):
            report["programs"][name] = {"status": "not run", "reason": "no recorded run (run_programs.py first)"}
            continue
        with open(path, encoding="utf-8") as f:
            recorded = json.load(f)
        if not ((recorded.get("phases") or {}).get("dynamo") or {}).get("logged_breaks"):
            report["programs"][name] = {"status": "no break"}
            continue
        src, why = run_programs.checkout(program)
        if src is None:
            report["programs"][name] = {"status": "not run", "reason": why}
            sys.stderr.write("[fix-programs] %s: NOT RUN: %s\n" % (name, why))
            continue
        own = own_files(src, program["own"])
        before, before_out = run_worker(ns.python, program, src, False, ns.timeout)
        _, again_out = run_worker(ns.python, program, src, False, ns.timeout)
        stable = stable_lines(before_out, again_out)
        row = report["programs"][name] = {"repo": program["repo"], "commit": program["commit"],
                                          "before": summary_of(before), "variants": {},
                                          "output_lines": len(before_out.splitlines()),
                                          "stable_lines": None if stable is None else len(stable)}
        for variant, flags in VARIANTS.items():
            dest = os.path.join(run_programs.SCRATCH, "fixed-" + variant, os.path.basename(src))
            fx = fix_copy(src, dest, own, flags, torch_version)
            after, after_out = run_worker(ns.python, program, dest, True, ns.timeout)
            difference = first_difference(before_out, stable, after_out)
            same = difference is None
            row["variants"][variant] = {"fix": fx, "after": summary_of(after), "same_output": same,
                                        "first_difference": difference, "output_lines": len(after_out.splitlines())}
            sys.stderr.write("[fix-programs] %s %s: %s; breaks %s -> %s (%s), output %s\n" % (
                name, variant, fx["summary"], before.get("counted_breaks"), after.get("counted_breaks"),
                after.get("status"), "same" if same else "DIFFERS"))
    report["seconds"] = round(time.time() - t_all)
    out = os.path.join(results, "fix.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1, sort_keys=True)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
