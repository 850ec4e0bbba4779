#!/usr/bin/env python3
"""GM301 on the sweep: which roots `graphmend check` says compile as one graph with `fullgraph=True`,
and what real Dynamo does when they are compiled so.

    python3 eval/sweep/capture.py --python "$(eval/sweep/env.sh)"     [--libs transformers,...]

For every entry of ``out/torch-VERSION/LIB.json`` where Dynamo logged a break in some mode:

1. a roots file compiles each such class, eval and train mode, as a user's program does
   (``verdict.roots_file``: ``eval_1 = torch.compile(Model_1(Config_1()).eval())``), and
   ``graphmend check`` over the library package and that file says, per root, whether GM301 is
   reported at its ``torch.compile`` call (the fix: ``fullgraph=True``);
2. each class is built again (``catalog.build``) and, per mode, called eagerly and through
   ``torch.compile(model, fullgraph=True, backend="eager")`` (no_grad in eval mode, grad enabled in
   train mode, as the sweep traces): whether it compiles as one graph, and whether its outputs are
   bit for bit the eager ones; where they are not, whether they are those of
   ``torch.compile(model, backend="eager")`` without fullgraph=True, the program before the fix
   (a compiled module may take another kernel path than eager, with or without the fix).

``out/torch-VERSION/capture.json`` then has, per library: the roots with breaks, their graph breaks
(the sweep's ``graph_break_count``), the roots GM301 is reported for and, of those, how many compile
as one graph with the same outputs (their breaks are the ones the fix removes) and how many fail
(the fix would make the program raise); and the roots GM301 is not reported for that fullgraph=True
compiles anyway (missed). eval/report.py puts the table in docs/evaluation.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402  (env_info, class_imports, graphmend_command)
import verdict  # noqa: E402  (roots_file, config_classes, input_names, MODES)

WORKER = r'''
import json, sys
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2])
import torch, catalog, worker
torch.set_num_threads(1)
out = {}
for entry in sys.argv[4].split(","):
    r = out[entry] = {}
    try:
        model, inputs, _ = catalog.build(torch, entry)
    except Exception as e:
        r["error"] = "build: %s: %s" % (type(e).__name__, str(e)[:200])
        continue
    for mode in ("eval", "train"):
        model.train(mode == "train")
        grad = mode == "train"
        m = r[mode] = {"ok": False}
        try:
            torch.manual_seed(0)
            with torch.set_grad_enabled(grad):
                eager = worker.flatten(model(**inputs))
        except Exception as e:
            m["error"] = "eager: %s: %s" % (type(e).__name__, (str(e).strip().splitlines() or [""])[0][:200])
            continue
        torch._dynamo.reset()
        try:
            torch.manual_seed(0)
            with torch.set_grad_enabled(grad):
                got = worker.flatten(torch.compile(model, fullgraph=True, backend="eager")(**inputs))
            m["ok"] = True
            m["same"] = worker.bitwise_compare(eager, got)["identical"]
        except Exception as e:
            m["error"] = "%s: %s" % (type(e).__name__, (str(e).strip().splitlines() or [""])[0][:200])
        torch._dynamo.reset()
        if m.get("same") is False:
            # compiled code may differ from eager without the fix (kernels chosen for eager only):
            # then the fix is judged against the program as it compiled before, without fullgraph
            try:
                torch.manual_seed(0)
                with torch.set_grad_enabled(grad):
                    before = worker.flatten(torch.compile(model, backend="eager")(**inputs))
                m["same_as_before"] = worker.bitwise_compare(before, got)["identical"]
            except Exception as e:
                m["same_as_before"] = None
                m["before_error"] = "%s: %s" % (type(e).__name__, (str(e).strip().splitlines() or [""])[0][:200])
            torch._dynamo.reset()
    with open(sys.argv[3], "w") as f:
        json.dump(out, f)
'''


def breaking(data):
    """{entry: {mode: graph breaks}} of the entries that ran and logged a break in some mode."""
    out = {}
    for e, r in sorted(data["entries"].items()):
        if r.get("status") not in ("ran", "partial"):
            continue
        modes = r.get("modes") or {}
        if any((m or {}).get("logged_breaks") for m in modes.values()):
            out[e] = {mode: (m or {}).get("graph_break_count") or 0 for mode, m in modes.items()
                      if not (m or {}).get("skipped")}
    return out


def gm301_roots(checked, roots_path):
    """The 0-based lines of the roots file that get a GM301 diagnostic."""
    lines = set()
    for f in checked.get("files") or []:
        if os.path.realpath(f["path"]) != os.path.realpath(roots_path):
            continue
        for d in f["diagnostics"]:
            if d["code"] == "GM301":
                lines.add(d["range"]["start"]["line"])
    return lines


def keeps_outputs(row):
    """Whether fullgraph=True compiled the root as one graph with the outputs of eager, or else of
    the compile without fullgraph=True (the program before the fix), bit for bit."""
    return row["fullgraph_ok"] and bool(row["same"] or row.get("same_as_before"))


def previous_outcomes(path, torch_version):
    """{lib: {entry: {mode: {"ok", "same", "error"}}}} of an earlier capture.json under the same torch."""
    if not os.path.isfile(path):
        return {}
    with open(path, encoding="utf-8") as f:
        old = json.load(f)
    if old.get("torch") != torch_version:
        return {}
    out = {}
    for lib, r in (old.get("libs") or {}).items():
        for row in r.get("rows") or []:
            if row["same"] is False and "same_as_before" not in row:
                continue  # an outcome from before the comparison with the unfixed compile: run again
            out.setdefault(lib, {}).setdefault(row["entry"], {})[row["mode"]] = {
                "ok": row["fullgraph_ok"], "same": row["same"], "error": row["error"],
                "same_as_before": row.get("same_as_before")}
    return out


def run_fullgraph(py, entries, timeout):
    """{entry: {mode: {"ok", "same", "error"}}} from one worker process per entry."""
    out = {}
    for e in entries:
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
            path = f.name
        t0 = time.time()
        try:
            subprocess.run([py, "-c", WORKER, HERE, os.path.dirname(HERE), path, e], timeout=timeout,
                           capture_output=True, text=True)
            with open(path, encoding="utf-8") as f:
                out.update(json.load(f))
        except (subprocess.TimeoutExpired, OSError, ValueError) as ex:
            out[e] = {"error": "worker: %s" % type(ex).__name__}
        finally:
            if os.path.exists(path):
                os.unlink(path)
        sys.stderr.write("[capture] %s: %s (%.0f s)\n" % (e, json.dumps(out.get(e))[:200], time.time() - t0))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", required=True, help="the sweep environment's python (eval/sweep/env.sh)")
    ap.add_argument("--results", default="", help="results folder (default out/torch-VERSION)")
    ap.add_argument("--libs", default="transformers,timm,diffusers,torchvision,torch_geometric")
    ap.add_argument("--timeout", type=int, default=900, help="seconds per entry")
    ap.add_argument("--rerun", action="store_true",
                    help="run Dynamo again for every entry (default: reuse capture.json's outcomes for the same torch)")
    ns = ap.parse_args(argv)

    libs = [l for l in ns.libs.split(",") if l]
    info = compare.env_info(ns.python, libs)
    torch_version = info["torch"]
    results = ns.results or os.path.join(HERE, "out", "torch-%s" % torch_version)
    report = {"torch": torch_version, "generated": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "libs": {}}
    known = {} if ns.rerun else previous_outcomes(os.path.join(results, "capture.json"), torch_version)
    scratch = tempfile.mkdtemp(prefix="gm-capture-roots-")
    t_all = time.time()
    for lib, data in compare.library_results(results, libs):
        breaks = breaking(data)
        if not breaks:
            report["libs"][lib] = {"version": info[lib]["version"], "roots": 0}
            continue
        entries = sorted(breaks)
        classes = compare.class_imports(ns.python, entries)
        configs = verdict.config_classes(ns.python, entries, data) if lib == "transformers" else {}
        inputs = verdict.input_names(ns.python, results, entries)
        roots_path, where = verdict.roots_file(scratch, lib, entries, classes, configs, inputs)
        sys.stderr.write("[capture] %s: graphmend check over %s (%d roots)\n" % (lib, info[lib]["dir"], len(where)))
        checked = verdict.check_summary(info[lib]["dir"], roots_path, torch_version)
        offered = gm301_roots(checked, roots_path)
        # Dynamo's outcome does not depend on graphmend: kept from the last run unless --rerun
        todo = sorted({e for e, mode in where.values() if mode not in known.get(lib, {}).get(e, {})})
        full = dict(known.get(lib, {}))
        full.update(run_fullgraph(ns.python, todo, ns.timeout))
        causes = {m: verdict.root_causes(checked, roots_path, info[lib]["dir"], m) for m in verdict.MODES}
        rows = []
        for line, (entry, mode) in sorted(where.items()):
            n = breaks[entry].get(mode)
            if not n and not (data["entries"][entry]["modes"].get(mode) or {}).get("logged_breaks"):
                continue  # this mode does not break
            f = (full.get(entry) or {}).get(mode) or {}
            rows.append({"entry": entry, "mode": mode, "breaks": n or 0, "gm301": line in offered,
                         "fullgraph_ok": bool(f.get("ok")), "same": f.get("same"), "error": f.get("error"),
                         "same_as_before": f.get("same_as_before"),
                         # what graphmend counted for the root in this mode: what kept GM301 away
                         "counted": sorted({c[0] for c in causes[mode].get(line, [])})})
        removed = [r for r in rows if r["gm301"] and keeps_outputs(r)]
        report["libs"][lib] = {
            "version": info[lib]["version"], "roots": len(rows), "breaks": sum(r["breaks"] for r in rows),
            "gm301": sum(r["gm301"] for r in rows), "gm301_one_graph": len(removed),
            "breaks_removed": sum(r["breaks"] for r in removed),
            "gm301_fails": [r for r in rows if r["gm301"] and not keeps_outputs(r)],
            "missed": [r for r in rows if not r["gm301"] and r["fullgraph_ok"]],
            "fullgraph_ok": sum(r["fullgraph_ok"] for r in rows), "rows": rows}
    report["seconds"] = round(time.time() - t_all)
    out = os.path.join(results, "capture.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1, sort_keys=True)
    for lib, r in report["libs"].items():
        if r.get("roots"):
            sys.stderr.write("[capture] %s: %d roots with breaks (%d breaks); GM301 on %d, %d of them one graph with the "
                             "same outputs (%d breaks removed), %d fail; fullgraph=True works on %d, %d without GM301\n" % (
                                 lib, r["roots"], r["breaks"], r["gm301"], r["gm301_one_graph"], r["breaks_removed"],
                                 len(r["gm301_fails"]), r["fullgraph_ok"], len(r["missed"])))
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
