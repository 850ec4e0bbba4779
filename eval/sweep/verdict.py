#!/usr/bin/env python3
"""Judges ``graphmend check --summary``'s per-root verdict by the sweep.

    python3 eval/sweep/verdict.py --python SWEEP_ENV_PYTHON [--libs L,...] [--results DIR] [--alone N]

The sweep (``sweep.py``) knows, for each model it ran and each mode, whether Dynamo kept the
forward in one graph: no break logged (``counted_breaks == 0``) in that mode's ``explain`` run
(eval mode under ``no_grad``, train mode with grad). This script writes, beside the library's
installed package, a file of compile roots the way a user writes them: for each class the sweep
ran, the class built from its configuration class's defaults (transformers) or with no arguments,
once ``.eval()`` and once in the constructor's training mode::

    eval_1 = torch.compile(LlamaModel_1(LlamaConfig()).eval())
    eval_1(attention_mask=x, input_ids=x)
    train_1 = torch.compile(LlamaModel_1(LlamaConfig()))
    train_1(attention_mask=x, input_ids=x)

each called with the keyword arguments the sweep passed (found by building the class once more,
kept in ``inputs.json``), then runs ``graphmend check --format json --summary --assume-compiled explicit`` over the
package and that file, and compares each root's verdict (``breaks`` for the root's mode: 0 is
"one graph") with Dynamo's. A root ``--summary`` does not list has no break.

Reported (``out/.../verdict.json``, rendered by ``report.py`` into ``docs/sweep.md``), per library
and mode: the accuracy of the verdict, the accuracy of always answering "one graph", and every
disagreement grouped by cause: for "breaks" where Dynamo kept one graph, the diagnostics counted
for the root (rule and line), split by whether any of their lines ran in the sweep's eager runs of
the model (``executed``): none ran means the root's context (configuration, inputs, mode) kept the
model off those lines, which the analysis did not know; one ran means Dynamo ran it without a
break (the rule is wrong there); for "one graph" where Dynamo broke, the break Dynamo logged.

``--alone N``: also checks the first N roots of each library one at a time (a roots file with that
class alone) and reports where the verdict differs from the one of all roots checked together.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

import compare  # noqa: E402  (the sweep's checker: environment, classes, sites)

MODES = ("eval", "train")


def dynamo_one_graph(entry_result, mode):
    """True/False: Dynamo kept one graph in this mode; None when the mode did not run."""
    m = (entry_result.get("modes") or {}).get(mode)
    if not m or m.get("skipped") or m.get("error") or m.get("counted_breaks") is None:
        return None
    return m["counted_breaks"] == 0


def config_classes(py, entries, data):
    """{entry: config class name importable from the library's top level}, for transformers entries."""
    names = {e: (data["entries"][e].get("build") or {}).get("config") for e in entries}
    names = {e: n for e, n in names.items() if n}
    if not names:
        return {}
    code = ("import json, sys, transformers\n"
            "names = json.load(sys.stdin)\n"
            "print(json.dumps({e: n for e, n in names.items() if hasattr(transformers, n)}))")
    r = subprocess.run([py, "-c", code], input=json.dumps(names), capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        return {}
    return json.loads(r.stdout.strip().splitlines()[-1])


INPUT_NAMES = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import torch
import catalog
torch.set_num_threads(1)
out = {}
for entry in json.load(sys.stdin):
    try:
        _, inputs, _ = catalog.build(torch, entry)
        out[entry] = sorted(inputs)
    except Exception:  # noqa: BLE001 - a class that no longer builds gets no call
        out[entry] = None
print("\n" + json.dumps(out))
"""


def input_names(py, results, entries):
    """{entry: the keyword arguments the sweep called forward with (sorted), or None}: each entry
    built once more in the sweep environment (``catalog.build``), kept in ``inputs.json`` of the
    results folder so later runs read them."""
    path = os.path.join(results, "inputs.json")
    known = {}
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            known = json.load(f)
    missing = [e for e in entries if e not in known]
    if missing:
        sys.stderr.write("[verdict] building %d classes for their inputs\n" % len(missing))
        r = subprocess.run([py, "-c", INPUT_NAMES, HERE], input=json.dumps(missing), capture_output=True,
                           text=True, timeout=7200)
        if r.returncode != 0:
            raise SystemExit("finding the inputs failed:\n" + r.stderr[-3000:])
        known.update(json.loads(r.stdout.strip().splitlines()[-1]))
        with open(path, "w", encoding="utf-8") as f:
            json.dump(known, f, indent=1, sort_keys=True)
    return {e: known.get(e) for e in entries}


def roots_file(folder, lib, entries, classes, configs, inputs, tag=""):
    """The roots file, and {line (0-based): (entry, mode)} of each root in it. Each compiled
    model is called once with the keyword arguments the sweep gave it (``inputs``), as a user's
    program calls what it compiles: what the call leaves out is None for the verdict."""
    lines = ['"""Compile roots for graphmend check --summary (generated by eval/sweep/verdict.py)."""',
             "import torch", "", "x = torch.zeros(1)"]
    chosen = []
    for e in entries:
        c = classes.get(e)
        if c and not c[2]:  # an entry compiling methods of its class is judged by compare.py alone
            chosen.append((e, c[0], c[1], configs.get(e)))
    for i, (_, module, name, config) in enumerate(chosen, 1):
        lines.append("from %s import %s as %s_%d" % (module, name, name, i))
        if config:
            lines.append("from %s import %s as %s_%d" % (lib, config, config, i))
    lines.append("")
    where = {}
    for i, (e, _, name, config) in enumerate(chosen, 1):
        built = "%s_%d(%s)" % (name, i, "%s_%d()" % (config, i) if config else "")
        names = inputs.get(e)
        call = "(%s)" % ", ".join("%s=x" % n for n in names) if names is not None else None
        for mode, compiled in (("eval", "%s.eval()" % built), ("train", built)):
            where[len(lines)] = (e, mode)
            lines.append("%s_%d = torch.compile(%s)" % (mode, i, compiled))
            if call is not None:
                lines.append("%s_%d%s" % (mode, i, call))
    path = os.path.join(folder, "gm_verdict_roots_%s%s.py" % (lib, tag))
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return path, where


def check_summary(pkg_dir, roots, torch_version):
    cmd = compare.graphmend_command() + ["check", "--format", "json", "--summary", "--no-config",
           "--torch-version", ".".join(torch_version.split(".")[:2]), "--assume-compiled", "explicit", pkg_dir, roots]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    if r.returncode not in (0, 1):
        raise SystemExit("graphmend check failed (%d):\n%s" % (r.returncode, r.stderr[-3000:]))
    return json.loads(r.stdout)


def root_breaks(checked, roots_path, mode):
    """{line (0-based): breaks counted for the root on that line of the roots file, in its mode}."""
    out = {}
    for r in checked.get("roots") or []:
        if os.path.realpath(r["path"]) != os.path.realpath(roots_path):
            continue
        modes = r.get("modes") or {}
        out[r["line"]] = modes[mode]["breaks"] if mode in modes else r["breaks"]
    return out


def root_causes(checked, roots_path, pkg_dir, mode):
    """{line (0-based): [(cause, rel, first, last)]} of the diagnostics counted for each root of the
    file in ``mode``: cause "GM101 file:line", and the diagnostic's 1-based lines in its file."""
    out = {}
    for f in checked["files"]:
        rel = os.path.relpath(f["path"], pkg_dir)
        for d in f["diagnostics"]:
            reaching = d.get("roots") or ([d["root"]] if d.get("root") else [])
            first, last = d["range"]["start"]["line"] + 1, d["range"]["end"]["line"] + 1
            for r in reaching:
                if os.path.realpath(r["path"]) != os.path.realpath(roots_path):
                    continue
                if r.get("modes") and mode not in r["modes"]:
                    continue
                out.setdefault(r["line"], []).append(("%s %s:%d" % (d["code"], rel, first), rel, first, last))
    return out


def ran(entry_result, rel, first, last):
    """Whether any line of [first, last] of ``rel`` ran in the sweep's eager runs of the entry."""
    lines = compare.parse_ranges((entry_result.get("executed") or {}).get(rel, ""))
    return any(l in lines for l in range(first, last + 1))


NEVER_RAN = "breaks where Dynamo kept one graph: no counted diagnostic's line ran (the root's context decides)"
RAN = "breaks where Dynamo kept one graph: a counted diagnostic's line ran without a break (the rule)"
MISSED = "one graph where Dynamo broke"


def judge_lib(lib, data, checked, roots_path, where, pkg_dir):
    modes = {}
    for mode in MODES:
        causes = root_causes(checked, roots_path, pkg_dir, mode)
        breaks = root_breaks(checked, roots_path, mode)
        n = right = always = 0
        wrong = {NEVER_RAN: {}, RAN: {}, MISSED: {}}
        for line, (entry, m) in sorted(where.items()):
            if m != mode:
                continue
            truth = dynamo_one_graph(data["entries"][entry], mode)
            if truth is None:
                continue
            said = breaks.get(line, 0) == 0
            n += 1
            right += said == truth
            always += truth
            if said == truth:
                continue
            if not said:
                res = data["entries"][entry]
                counted = causes.get(line, [])
                executed = [c for c, rel, a, b in counted if ran(res, rel, a, b)]
                if executed:
                    for c in sorted(set(executed)):
                        wrong[RAN].setdefault(c, []).append(entry)
                else:
                    for c in sorted({c for c, _, _, _ in counted}) or ["(no diagnostic listed)"]:
                        wrong[NEVER_RAN].setdefault(c, []).append(entry)
            else:
                sites = data["entries"][entry]["modes"][mode].get("sites") or []
                for c in sorted({"%s %s (%s)" % (s.get("gb") or "?", s.get("site"), s.get("gb_type", "")[:60])
                                 for s in sites}) or ["(no site recorded)"]:
                    wrong[MISSED].setdefault(c, []).append(entry)
        modes[mode] = {"judged": n, "right": right, "always_one_graph": always, "disagreements": wrong}
    return modes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", required=True, help="the sweep environment's python")
    ap.add_argument("--results", default="", help="results folder (default out/torch-VERSION)")
    ap.add_argument("--libs", default="transformers,timm,diffusers,torchvision,torch_geometric")
    ap.add_argument("--alone", type=int, default=0, help="also check the first N roots of each library alone")
    ns = ap.parse_args(argv)

    libs = [l for l in ns.libs.split(",") if l]
    info = compare.env_info(ns.python, libs)
    torch_version = info["torch"]
    results = ns.results or os.path.join(HERE, "out", "torch-%s" % torch_version)
    report = {"torch": torch_version, "libs": {}}
    scratch = tempfile.mkdtemp(prefix="gm-verdict-roots-")
    for lib, data in compare.library_results(results, libs):
        built = sorted(e for e, r in data["entries"].items() if r.get("status") in ("ran", "partial"))
        classes = compare.class_imports(ns.python, built)
        configs = config_classes(ns.python, built, data) if lib == "transformers" else {}
        pkg_dir = info[lib]["dir"]
        inputs = input_names(ns.python, results, built)
        roots_path, where = roots_file(scratch, lib, built, classes, configs, inputs)
        sys.stderr.write("[verdict] %s: graphmend check --summary over %s (%d roots)\n" % (lib, pkg_dir, len(where)))
        checked = check_summary(pkg_dir, roots_path, torch_version)
        lib_report = {"version": info[lib]["version"], "roots": len(where),
                      "modes": judge_lib(lib, data, checked, roots_path, where, pkg_dir)}
        if ns.alone:
            together = {m: root_breaks(checked, roots_path, m) for m in MODES}
            differ, tried = [], 0
            for e in sorted({e for e, _ in where.values()})[:ns.alone]:
                p, w = roots_file(scratch, lib, [e], classes, configs, inputs, tag="_alone")
                alone = check_summary(pkg_dir, p, torch_version)
                tried += 1
                for line, (entry, mode) in w.items():
                    a = root_breaks(alone, p, mode).get(line, 0) == 0
                    t_line = next(l for l, v in where.items() if v == (entry, mode))
                    t = together[mode].get(t_line, 0) == 0
                    if a != t:
                        differ.append({"entry": entry, "mode": mode, "alone_one_graph": a, "together_one_graph": t})
            lib_report["alone"] = {"checked": tried, "differ": differ}
        report["libs"][lib] = lib_report
    shutil.rmtree(scratch, ignore_errors=True)
    out = os.path.join(results, "verdict.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1, sort_keys=True)
    for lib, r in report["libs"].items():
        for mode, m in r["modes"].items():
            sys.stderr.write("[verdict] %s %s: right %d/%d, always 'one graph' %d/%d\n" % (
                lib, mode, m["right"], m["judged"], m["always_one_graph"], m["judged"]))
        if "alone" in r:
            sys.stderr.write("[verdict] %s: %d roots checked alone, %d verdicts differ from all together\n" % (
                lib, r["alone"]["checked"], len(r["alone"]["differ"])))
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
