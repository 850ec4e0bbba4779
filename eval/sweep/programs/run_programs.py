#!/usr/bin/env python3
"""The programs part of the Dynamo sweep: real programs that call ``torch.compile`` themselves.

    python3 eval/sweep/programs/run_programs.py --python SWEEP_ENV_PYTHON [--programs a,b] [--no-run]

For each program of ``catalog.json`` (a public repository at a pinned commit, the files that are
the program's own, a driver):

1. the repository's snapshot must be on the machine (``$GM_MIRRORS/OWNER+NAME/repo``, a bare git
   folder, by default ``/work/.mirror``); its pinned commit is extracted with ``git archive`` into
   ``~/.cache/graphmend/sweep-scratch-programs/OWNER+NAME-COMMIT/`` (``$GM_PROGRAMS_SCRATCH``;
   never into this repository), once.
   A program whose snapshot or commit is missing is recorded as not run, with the reason, and
   printed; it is never skipped silently;
2. ``program_worker.py`` runs the driver twice, each in a subprocess with a timeout: eagerly under
   a line tracer (executed lines), and under real Dynamo (break sites and traced lines), into
   ``out/programs-torch-VERSION/NAME.json``;
3. ``graphmend check`` runs over each extracted repository in both compile-root modes
   (``explicit``: the roots are the programs' own ``torch.compile`` calls; ``module-forward``), and
   ``compare.judge`` (the library part's judging) counts recall and precision on the programs'
   own files, per program and per repository (a site two programs of a repository share counts
   once there); ``out/programs-torch-VERSION/compare.json``, rendered by ``report.py``.
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
sys.path.insert(0, SWEEP)

import compare  # noqa: E402  (after the path set-up)

sys.path.insert(0, HERE)
from own import own_files  # noqa: E402

SCRATCH = os.environ.get("GM_PROGRAMS_SCRATCH") or os.path.expanduser("~/.cache/graphmend/sweep-scratch-programs")
MIRRORS = os.environ.get("GM_MIRRORS", "/work/.mirror")
JUDGED = ("ran", "stopped")  # statuses whose recorded lines and sites are judged


def load_catalog():
    with open(os.path.join(HERE, "catalog.json"), encoding="utf-8") as f:
        return json.load(f)["programs"]


def checkout(program):
    """The extracted repository at the pinned commit, or (None, why)."""
    repo, commit = program["repo"], program["commit"]
    git_dir = os.path.join(MIRRORS, repo.replace("/", "+"), "repo")
    dest = os.path.join(SCRATCH, "%s-%s" % (repo.replace("/", "+"), commit[:12]))
    if os.path.isfile(os.path.join(dest, ".gm-extracted")):
        return dest, None
    if not os.path.isdir(git_dir):
        return None, "no snapshot of %s on this machine (%s); fetch it (github:%s) and run again" % (repo, git_dir, repo)
    ok = subprocess.run(["git", "--git-dir", git_dir, "cat-file", "-e", commit + "^{commit}"], capture_output=True)
    if ok.returncode != 0:
        return None, "the snapshot of %s at %s does not hold commit %s" % (repo, git_dir, commit)
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    paths = program.get("extract") or []
    archive = subprocess.Popen(["git", "--git-dir", git_dir, "archive", commit] + paths, stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", dest], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        return None, "git archive of %s %s failed" % (repo, commit)
    with open(os.path.join(dest, ".gm-extracted"), "w", encoding="utf-8") as f:
        f.write(commit + "\n")
    return dest, None


def run_phase(py, program, src, phase, timeout):
    logs = os.path.join(SCRATCH, "logs")
    os.makedirs(logs, exist_ok=True)
    out = os.path.join(logs, "%s.%s.json" % (program["name"], phase))
    log = out[:-5] + ".log"  # the program's output, kept beside the checkouts (not committed)
    work = tempfile.mkdtemp(prefix="gm-program-%s-" % program["name"])
    env = dict(os.environ, GM_PROGRAM=program["name"], PYTHONHASHSEED="0", CUDA_VISIBLE_DEVICES="", OMP_NUM_THREADS="1",
               TORCHINDUCTOR_CACHE_DIR=os.path.join(work, ".inductor"), MPLBACKEND="Agg",
               HF_HUB_OFFLINE="1", WANDB_MODE="disabled")
    cmd = [py, os.path.join(HERE, "program_worker.py"), "--program", program["name"], "--src", src,
           "--work", work, "--phase", phase, "--out", out]
    t0 = time.perf_counter()
    with open(log, "w", encoding="utf-8") as f:
        try:
            proc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout, env=env)
            code = proc.returncode
        except subprocess.TimeoutExpired:
            code = "timeout"
    wall = round(time.perf_counter() - t0, 1)
    shutil.rmtree(work, ignore_errors=True)
    try:
        with open(out, encoding="utf-8") as f:
            res = json.load(f)
        os.remove(out)
    except (OSError, ValueError):
        res = {"status": "crashed", "errors": ["no result (exit %s); see %s" % (code, log)]}
    if code == "timeout":
        res["status"] = "timeout"
        res.setdefault("errors", []).append("killed after %d s" % timeout)
    res["exit"], res["wall_s"] = code, wall
    return res


def run_program(py, program, timeout):
    src, why = checkout(program)
    result = {"name": program["name"], "repo": program["repo"], "commit": program["commit"],
              "kind": program.get("kind", ""), "own": program["own"]}
    if src is None:
        result.update(status="not run", reason=why)
        return result
    eager = run_phase(py, program, src, "eager", timeout)
    dynamo = run_phase(py, program, src, "dynamo", timeout)
    statuses = {eager.get("status"), dynamo.get("status")}
    # stopped: the program raised in a phase (a dependency missing half-way, an unsupported
    # device); the lines before it ran and are judged, the rest are not
    result["status"] = ("ran" if statuses == {"ran"} else
                        "stopped" if statuses <= {"ran", "stopped"} else "failed")
    result["stopped_at"] = {ph: r["stopped_at"] for ph, r in (("eager", eager), ("dynamo", dynamo)) if r.get("stopped_at")}
    result["errors"] = ["eager: " + e for e in eager.get("errors", [])] + ["dynamo: " + e for e in dynamo.get("errors", [])]
    result["phases"] = {"eager": {k: eager.get(k) for k in ("status", "exit", "wall_s", "seconds", "stopped_at")},
                        "dynamo": {k: dynamo.get(k) for k in ("status", "exit", "wall_s", "seconds", "counted_breaks",
                                                              "logged_breaks", "unique_graphs", "frames_compiled",
                                                              "stopped_at")}}
    result["compile_calls"] = dynamo.get("compile_calls") or eager.get("compile_calls") or []
    result["executed"] = eager.get("executed") or {}
    result["traced"] = dynamo.get("traced") or {}
    result["modes"] = {"run": {"sites": dynamo.get("sites") or [], "traced": result["traced"], "grad": True}}
    result["torch"] = dynamo.get("torch") or eager.get("torch")
    return result


def own_only(checked, src, own):
    """``graphmend check``'s result restricted to the given files of the checkout."""
    keep = {os.path.realpath(os.path.join(src, rel)) for rel in own}
    return dict(checked, files=[f for f in checked["files"] if os.path.realpath(f["path"]) in keep])


def judge_all(programs, results, torch_version, modes):
    """compare.json: per repository (every program of it as one entry) and per program."""
    report = {"torch": torch_version, "repos": {}, "programs": {}}
    by_repo = {}
    for p in programs:
        by_repo.setdefault((p["repo"], p["commit"]), []).append(p)
    for (repo, commit), ps in sorted(by_repo.items()):
        ran = [p for p in ps if results[p["name"]].get("status") in JUDGED]
        for p in ps:
            r = results[p["name"]]
            report["programs"][p["name"]] = {k: r.get(k) for k in ("repo", "commit", "kind", "own", "status", "reason",
                                                                  "errors", "stopped_at", "phases", "compile_calls")}
            report["programs"][p["name"]]["modes"] = {}
        if not ran:
            continue
        src, _ = checkout(ran[0])
        own = sorted({f for p in ran for f in own_files(src, p["own"])})
        per_file = {}
        for rel in own:
            with open(os.path.join(src, rel), encoding="utf-8", errors="replace") as f:
                per_file[rel] = sum(1 for _ in f)
        rep = report["repos"]["%s@%s" % (repo, commit[:12])] = {
            "programs": [p["name"] for p in ran], "own": own, "files": len(own), "lines": sum(per_file.values()),
            "modes": {}}
        for p in ran:
            mine = own_files(src, p["own"])
            report["programs"][p["name"]].update(own_files=len(mine), own_lines=sum(per_file[f] for f in mine))
        for mode in modes:
            sys.stderr.write("[programs] %s: graphmend check (%s) over %s\n" % (repo, mode, src))
            checked = compare.run_check(src, [], mode, torch_version)
            data = {"entries": {p["name"]: results[p["name"]] for p in ran}}
            rep["modes"][mode] = compare.judge(repo, src, data, own_only(checked, src, own))
            for p in ran:
                one = {"entries": {p["name"]: results[p["name"]]}}
                report["programs"][p["name"]]["modes"][mode] = compare.judge(
                    repo, src, one, own_only(checked, src, own_files(src, p["own"])))
    return report


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", required=True, help="the sweep environment's python")
    ap.add_argument("--programs", default="", help="only these programs (comma-separated names)")
    ap.add_argument("--no-run", action="store_true", help="only re-check and re-judge the recorded results")
    ap.add_argument("--timeout", type=int, default=150, help="seconds per program and phase")
    ap.add_argument("--modes", default=",".join(compare.MODES))
    ap.add_argument("--results", default="", help="results folder (default out/programs-torch-VERSION)")
    ns = ap.parse_args(argv)

    torch_version = compare.env_info(ns.python, [])["torch"]
    out_dir = ns.results or os.path.join(SWEEP, "out", "programs-torch-%s" % torch_version)
    os.makedirs(out_dir, exist_ok=True)
    programs = load_catalog()
    chosen = set(filter(None, ns.programs.split(",")))
    unknown = chosen - {p["name"] for p in programs}
    if unknown:
        ap.error("not in catalog.json: " + ", ".join(sorted(unknown)))
    results = {}
    for p in programs:
        path = os.path.join(out_dir, p["name"] + ".json")
        if ns.no_run or (chosen and p["name"] not in chosen):
            if os.path.isfile(path):
                with open(path, encoding="utf-8") as f:
                    results[p["name"]] = json.load(f)
            else:
                results[p["name"]] = {"status": "not run", "reason": "no recorded result (run it: --programs %s)" % p["name"]}
            continue
        t0 = time.perf_counter()
        r = results[p["name"]] = run_program(ns.python, p, ns.timeout)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(r, f, indent=1, sort_keys=True)
        sys.stderr.write("[programs] %s: %s%s, %d site(s), %.0f s\n" % (
            p["name"], r["status"], (" (%s)" % r.get("reason")) if r.get("reason") else "",
            len(r.get("modes", {}).get("run", {}).get("sites", [])), time.perf_counter() - t0))
    for name, r in sorted(results.items()):
        if r.get("status") not in JUDGED:
            sys.stderr.write("[programs] NOT RUN: %s: %s %s\n" % (name, r.get("status"), r.get("reason") or r.get("errors")))
    report = judge_all(programs, results, torch_version, ns.modes.split(","))
    out = os.path.join(out_dir, "compare.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1, sort_keys=True)
    for key, rep in report["repos"].items():
        for mode, m in rep["modes"].items():
            ex = m["executed_diagnostics"]
            sys.stderr.write("[programs] %s %s: recall %d/%d, precision on executed lines %d/%d\n" % (
                key, mode, sum(s["flagged"] for s in m["sites"]), len(m["sites"]), sum(d["true"] for d in ex), len(ex)))
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
