#!/usr/bin/env python3
"""The sweep's fix rate: how many of the breaks the sweep found `graphmend fix` removes, per library.

    eval/sweep/fix_sweep.py --python "$(eval/sweep/env.sh)"      (or: eval/sweep/run.sh --fix)

For every entry of ``out/torch-VERSION/LIB.json`` where Dynamo logged a break, in each variant
(``safe``: ``graphmend fix``; ``unsafe``: ``graphmend fix --unsafe-fixes``):

1. copies the installed library package into ``~/.cache/graphmend/sweep-scratch-VERSION/fix/VARIANT``;
2. runs ``graphmend fix --assume-compiled module-forward`` there on every package file those
   entries executed, with the package's ``__init__.py`` files (a library has no ``torch.compile``
   call of its own: a model's forward is the compile root, as a user compiling the model has it);
3. runs the same entries again (``sweep.py --entries``) with ``PYTHONPATH`` at the copy, into
   ``out/fix-torch-VERSION/VARIANT/LIB.json``, and checks that each entry imported the copy.

``out/fix-torch-VERSION/summary.json`` then has, per library and variant, the entries and, before
and after, ``[break sites, graph breaks (graphs - 1), logged breaks]`` summed over eval and train
mode, and the entries that no longer build or run (counted with their breaks before). ``eval/report.py`` puts the table in docs/evaluation.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import harness  # noqa: E402  (package_inits: eval/harness.py)
import sweep  # noqa: E402  (load, save, log)

VARIANTS = {"safe": [], "unsafe": ["--unsafe-fixes"]}


def breaking_entries(data):
    """The entries of one library's results where Dynamo logged a break in some mode."""
    out = []
    for name, e in sorted(data["entries"].items()):
        if e.get("status") not in ("ran", "partial"):
            continue
        if any((m or {}).get("logged_breaks") for m in (e.get("modes") or {}).values()):
            out.append(name)
    return out


def counts(entry_result):
    """[break sites, graph breaks (graphs - 1), logged breaks] of one entry over its modes; None when
    it did not run. Logged breaks include those before a graph's first op, which graphs - 1 misses."""
    if not entry_result or entry_result.get("status") not in ("ran", "partial"):
        return None
    modes = (entry_result.get("modes") or {}).values()
    return [sum(len(m.get("sites") or []) for m in modes), sum(m.get("graph_break_count") or 0 for m in modes),
            sum(m.get("logged_breaks") or 0 for m in modes)]


def total(rows):
    return [sum(r[i] for r in rows) for i in range(3)]


def torch_version(py):
    """The torch release of the environment ``py`` (``2.15.0``, without a local ``+cu…``)."""
    r = subprocess.run([py, "-c", "import torch; print(torch.__version__.split('+')[0])"],
                       capture_output=True, text=True, check=True)
    return r.stdout.strip().splitlines()[-1]


def package_dir(py, lib):
    r = subprocess.run([py, "-c", "import os, %s as m; print(os.path.dirname(os.path.realpath(m.__file__)))" % lib],
                       capture_output=True, text=True, check=True, env={k: v for k, v in os.environ.items()
                                                                       if k != "PYTHONPATH"})
    return r.stdout.strip().splitlines()[-1]


def fix_copy(jar_cmd, src_pkg, copy_root, files, flags):
    """Copies the package under copy_root and fixes `files` (relative to the package) there."""
    name = os.path.basename(src_pkg)
    dst = os.path.join(copy_root, name)
    shutil.rmtree(dst, ignore_errors=True)
    os.makedirs(copy_root, exist_ok=True)
    shutil.copytree(src_pkg, dst, ignore=shutil.ignore_patterns("__pycache__"))
    targets = sorted(set(files) | set(harness.package_inits(dst, files)))
    t0 = time.perf_counter()
    proc = subprocess.run(jar_cmd + ["fix", "--assume-compiled", "module-forward", *flags, *targets],
                          cwd=dst, capture_output=True, text=True, timeout=3600)
    summary = (proc.stdout.strip().splitlines() or [""])[-1]
    return {"rc": proc.returncode, "files": len(targets), "seconds": round(time.perf_counter() - t0, 1),
            "summary": summary, "stderr": proc.stderr[-1000:]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", required=True, help="the sweep environment's python (eval/sweep/env.sh)")
    ap.add_argument("--libs", default="transformers,timm,diffusers,torch_geometric,torchvision")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--timeout", type=int, default=300, help="seconds per entry")
    ap.add_argument("--limit", type=int, default=0, help="at most N entries per library (a quick look)")
    ns = ap.parse_args(argv)
    version = torch_version(ns.python)
    before_dir = os.path.join(sweep.OUT, "torch-" + version)
    out_dir = os.path.join(sweep.OUT, "fix-torch-" + version)
    scratch = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "graphmend",
                           "sweep-scratch-" + version, "fix")
    jar = os.path.join(ROOT, "server", "target", "graphmend.jar")
    subprocess.run([os.path.join(ROOT, "graphmend"), "--version"], capture_output=True)  # builds a stale jar
    stable = os.path.join(scratch, "graphmend.jar")
    os.makedirs(scratch, exist_ok=True)
    shutil.copyfile(jar, stable)  # a rebuild during the run must not change the tool mid-way
    jar_cmd = ["java", "-jar", stable]
    summary = sweep.load(os.path.join(out_dir, "summary.json")) or {"torch": version, "libraries": {}}
    start = time.perf_counter()
    for lib in ns.libs.split(","):
        before = sweep.load(os.path.join(before_dir, lib + ".json"))
        if not before:
            sweep.log("%s: no sweep results in %s; run the sweep first" % (lib, before_dir))
            continue
        entries = breaking_entries(before)
        if ns.limit:
            entries = entries[:ns.limit]
        lib_sum = summary["libraries"][lib] = {"version": before.get("version"), "entries": len(entries),
                                               "variants": {}}
        lib_sum["before"] = total([counts(before["entries"][e]) for e in entries])
        if not entries:
            sweep.log("%s: no entry with a break" % lib)
            continue
        files = sorted({f for e in entries for f in before["entries"][e].get("executed", {})})
        src_pkg = package_dir(ns.python, lib)
        for variant in ns.variants.split(","):
            copy_root = os.path.join(scratch, variant)
            sweep.log("%s %s: fixing %d executed file(s) in a copy" % (lib, variant, len(files)))
            fx = fix_copy(jar_cmd, src_pkg, copy_root, files, VARIANTS[variant])
            sweep.log("%s %s: %s (exit %d, %.0f s)" % (lib, variant, fx["summary"], fx["rc"], fx["seconds"]))
            res_dir = os.path.join(out_dir, variant)
            env = dict(os.environ, PYTHONPATH=copy_root)
            subprocess.run([sys.executable, os.path.join(HERE, "sweep.py"), "--python", ns.python, "--libs", lib,
                            "--entries", ",".join(entries), "--out", res_dir, "--rerun",
                            "--timeout", str(ns.timeout)], env=env, check=False)
            after = sweep.load(os.path.join(res_dir, lib + ".json")) or {"entries": {}}
            wrong_copy, failed, per_entry = [], [], {}
            rows = []
            for e in entries:
                res = after["entries"].get(e)
                if res and os.path.realpath(res.get("package_dir", "")) != os.path.realpath(os.path.join(copy_root, lib)):
                    wrong_copy.append(e)
                c = counts(res)
                if c is None:
                    failed.append({"entry": e, "status": (res or {}).get("status"), "reason": (res or {}).get("reason")})
                    c = counts(before["entries"][e])  # counted as unfixed
                rows.append(c)
                per_entry[e] = {"before": counts(before["entries"][e]), "after": c}
            lib_sum["variants"][variant] = {"fix": fx, "after": total(rows), "failed": failed,
                                            "not_the_copy": wrong_copy, "per_entry": per_entry}
            sweep.save(os.path.join(out_dir, "summary.json"), summary)
            sweep.log("%s %s: [sites, graph breaks, logged breaks] %s -> %s%s" % (
                lib, variant, lib_sum["before"], lib_sum["variants"][variant]["after"],
                "; %d entr(ies) failed after the fix" % len(failed) if failed else ""))
    summary["wall_s"] = round(time.perf_counter() - start)
    summary["generated"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    sweep.save(os.path.join(out_dir, "summary.json"), summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
