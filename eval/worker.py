"""Measure one model family under TorchDynamo in one variant of the transformers source.

Run by ``eval/harness.py`` in a subprocess of the evaluation environment's python, one process
per (family, variant), so a crash or a timeout loses one measurement only:

    python eval/worker.py --family t5 --variant before --ref DIR --out RESULT.json

``before`` imports the pristine transformers of the environment; the other variants
(``safe``, ``unsafe``) are run with ``PYTHONPATH`` pointing at a scratch copy that
``graphmend fix`` rewrote, and the worker records which ``transformers/__init__.py`` it
imported so the report can prove the copy was used.

Steps, each guarded so a failure is recorded and the next step still runs:

1. Build the model (``models.build``: tiny seeded config, eval mode). ``before`` saves its
   state_dict and inputs under ``--ref``; the other variants load them, so every variant runs
   the same weights on the same inputs.
2. Eager forward (no_grad); outputs saved flattened under ``--ref``; the other variants compare
   theirs with ``before``'s bit for bit (same dtype, shape and bytes). What the forward shows its
   user (stdout, transformers' log records with level and logger, warnings with category and
   file; ``tools/program_effects.py``) is saved too and compared the same way, in order.
3. ``torch._dynamo.explain`` (unless ``--no-explain``): graph and break counts, and every break
   Dynamo logs, taken from ``InstructionTranslatorBase.log_graph_break`` through the project's Dynamo oracle
   (``tools/dynamo_oracle.py``), so breaks before the first op are not lost. A break's site is
   the innermost frame of its user stack inside the transformers package (``path:line``,
   relative to the package folder); breaks are deduplicated by site. Each site gets a category
   from its graph-break id and its source line (see ``categorize``).
   The transformers files the process loaded are recorded (``loaded_files``), so the harness
   can tell which models a rewritten file can affect.
   Then (also unless ``--no-explain``) one call under ``torch.compile(fullgraph=True,
   backend="aot_eager")``: whether the model compiles as one graph and, when it does, its outputs
   against the eager ones and what it showed the user against ``before``'s eager run.
4. ``torch.compile(backend="inductor")`` (unless ``--no-compile``) on CPU in a fresh inductor
   cache (the harness sets ``TORCHINDUCTOR_CACHE_DIR``, turns the FX graph caches off and compiles
   in-process, ``TORCHINDUCTOR_COMPILE_THREADS=1``, so the C++ compiler runs are this process's
   children): first call (compile plus one run) in wall and CPU seconds, then steady-state latency
   (``--iters`` calls after one warm-up) and eager latency the same way, with ``--threads``
   intra-op threads (1 by default: the evaluation machine is small and shared, so CPU time is the
   figure the report's ratios use). Compiled outputs are compared bitwise with the eager ones and,
   for the fixed variants, with ``before``'s compiled outputs.
"""

from __future__ import annotations

import argparse
import json
import linecache
import os
import resource
import statistics
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tools"))

import models  # noqa: E402  (after the path set-up)

SIDE_EFFECT_IDS = {"GB0291", "GB0059", "GB4841", "GB6215"}
SCALAR_IDS = {"GB0124", "GB0109"}
DATA_DEPENDENT_OP_IDS = {"GB0033"}
DYNAMIC_SHAPE_IDS = {"GB0036", "GB0246"}


def categorize(gb, reason, path, line):
    """The paper's break categories, from the graph-break id and the source at the site.

    Fixable by source rewrites: ``control-flow`` (a branch on tensor values), ``validation-guard``
    (such a branch whose body raises), ``logger`` (logging, print, warnings.warn).
    Not fixable: ``dynamic-shape`` (ops whose output shape depends on values), ``item``
    (``.item()``/``.tolist()``), ``data-dependent-op`` (an op that needs a tensor value as a Python
    number, e.g. a size or slice bound taken from a tensor); anything else is ``other``.
    """
    text = linecache.getline(path, line).strip() if path and line else ""
    if gb in SIDE_EFFECT_IDS or "warnings.warn" in text or "logger." in text or text.startswith("print("):
        return "logger"
    if gb == "GB0170" or reason.startswith("Data-dependent branching"):
        guard = text.startswith(("if ", "elif ")) and _raises_next(path, line)
        return "validation-guard" if guard else "control-flow"
    if gb in SCALAR_IDS:
        return "item"
    if gb in DATA_DEPENDENT_OP_IDS:
        return "data-dependent-op"
    if gb in DYNAMIC_SHAPE_IDS:
        return "dynamic-shape"
    return "other"


def _raises_next(path, line):
    """True when the statement after the `if` header at `line` is a `raise`."""
    n = line
    while n < line + 8:  # the header may span lines; find its end
        if linecache.getline(path, n).rstrip().endswith(":"):
            break
        n += 1
    nxt = linecache.getline(path, n + 1).strip()
    return nxt.startswith("raise ")


def flatten(obj, prefix="out"):
    """[(name, tensor)] of every tensor in a model output (ModelOutput, tuples, caches, dicts)."""
    import torch

    found = []
    if isinstance(obj, torch.Tensor):
        found.append((prefix, obj))
    elif isinstance(obj, dict):  # ModelOutput is an OrderedDict
        for k, v in obj.items():
            found.extend(flatten(v, "%s.%s" % (prefix, k)))
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            found.extend(flatten(v, "%s[%d]" % (prefix, i)))
    elif obj is not None and hasattr(obj, "to_legacy_cache"):
        found.extend(flatten(obj.to_legacy_cache(), prefix + ".cache"))
    elif obj is not None and hasattr(obj, "__dict__") and not isinstance(obj, type):
        for k in sorted(vars(obj)):
            found.extend(flatten(vars(obj)[k], "%s.%s" % (prefix, k)))
    return found


def bitwise_compare(a, b):
    """{"identical", "tensors", "mismatched": [names], "max_abs_diff"} of two flattened outputs."""
    import torch

    da, db = dict(a), dict(b)
    mismatched, max_diff = [], 0.0
    for name in sorted(set(da) | set(db)):
        x, y = da.get(name), db.get(name)
        if x is None or y is None or x.dtype != y.dtype or x.shape != y.shape:
            mismatched.append(name)
            continue
        xb = x.detach().contiguous().reshape(-1).view(torch.uint8)
        yb = y.detach().contiguous().reshape(-1).view(torch.uint8)
        if not torch.equal(xb, yb):
            mismatched.append(name)
            if x.is_floating_point():
                max_diff = max(max_diff, float((x.double() - y.double()).abs().nan_to_num(float("inf")).max()))
    return {"identical": not mismatched, "tensors": len(set(da) | set(db)), "mismatched": mismatched[:10],
            "n_mismatched": len(mismatched), "max_abs_diff": max_diff}


def cpu_seconds():
    """CPU time of this process and its finished children (the C++ compiler runs Inductor spawns)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def timed_calls(fn, inputs, iters):
    """{"wall", "wall_min", "cpu"}: median and minimum wall seconds, median CPU seconds of a call.

    `iters` calls after one warm-up. CPU time is what the ratios use: the evaluation machine is
    shared, and wall time there measures the neighbours as much as the model.
    """
    import torch

    walls, cpus = [], []
    with torch.no_grad():
        fn(**inputs)  # warm-up
        for _ in range(iters):
            t0, c0 = time.perf_counter(), time.process_time()
            fn(**inputs)
            walls.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
    return {"wall": statistics.median(walls), "wall_min": min(walls), "cpu": statistics.median(cpus)}


def explain_breaks(torch, oracle, model, inputs, package_dir, no_grad=True):
    """Graph/break counts and deduplicated break sites of one explain run (under no_grad unless
    told otherwise: a training step traces with grad enabled, and some breaks need it)."""
    dynamo = torch._dynamo
    gb_ids = oracle.load_gb_ids(torch)
    recorder = explain_breaks.recorder = getattr(explain_breaks, "recorder", None) or oracle.Recorder(torch)
    dynamo.reset()
    dynamo.utils.counters.clear()
    recorder.events = []
    result = {"error": None}
    try:
        with torch.set_grad_enabled(not no_grad):
            ex = dynamo.explain(model)(**inputs)
        result.update(graph_count=ex.graph_count, graph_break_count=ex.graph_break_count,
                      op_count=ex.op_count)
    except Exception as e:  # noqa: BLE001 - recorded, not dropped
        result["error"] = "%s: %s" % (type(e).__name__, oracle.first_line(str(e))[:300])
        traceback.print_exc()
    events, recorder.events = recorder.events, None
    result["counted_breaks"] = sum(dynamo.utils.counters["graph_break"].values())
    result["logged_breaks"] = len(events)
    dynamo.reset()
    pkg = os.path.realpath(package_dir) + os.sep
    sites = {}
    for frames, reason, exc in events:
        inside = [f for f in frames if f[0].startswith(pkg)]
        where = inside[-1] if inside else (frames[-1] if frames else ("?", 0, "?"))
        rel = os.path.relpath(where[0], pkg) if inside else where[0]
        key = "%s:%s" % (rel, where[1])
        gb_type = oracle.root_gb_type(exc)
        gb = gb_ids.get(gb_type or "")
        summary = oracle.summarize_reason(reason, exc)
        if key in sites:
            sites[key]["hits"] += 1
            continue
        sites[key] = {
            "site": key, "file": rel, "line": where[1], "function": where[2], "in_transformers": bool(inside),
            "gb": gb, "gb_type": gb_type, "reason": summary,
            "category": categorize(gb, summary, where[0], where[1]),
            "source": linecache.getline(where[0], where[1]).strip()[:200],
            "stack": ["%s:%s" % (os.path.relpath(f[0], pkg) if f[0].startswith(pkg) else os.path.basename(f[0]), f[1])
                      for f in frames][-6:],
            "hits": 1,
        }
    result["sites"] = sorted(sites.values(), key=lambda s: (s["file"], s["line"]))
    return result


def model_effects(package_dir):
    """What a forward shows its user: stdout, the records of transformers' loggers (which do not
    propagate to the root) and the warnings issued from the package, with the warning's file."""
    import program_effects

    pkg = os.path.realpath(package_dir) + os.sep

    def relative(filename):
        real = os.path.realpath(filename)
        return os.path.relpath(real, pkg) if real.startswith(pkg) else os.path.basename(real)

    effects = program_effects.Effects(lambda record: record.name.startswith("transformers"),
                                      lambda filename: os.path.realpath(filename).startswith(pkg),
                                      loggers=("", "transformers"), describe_warning=relative)
    effects.record_event = lambda r: "log %s %s: %s" % (r.levelname, r.name, r.getMessage())
    return effects


def compare_effects(expected, got):
    """{"identical", "before", "after"}: the two event lists (as the user sees them, in order)."""
    return {"identical": expected == got, "before": len(expected), "after": len(got),
            "first_difference": next(({"index": i, "before": a, "after": b} for i, (a, b)
                                      in enumerate(zip(expected + [None] * len(got), got + [None] * len(expected)))
                                      if a != b), None)}


def fullgraph_run(torch, model, inputs, effects, eager_out, expected_effects):
    """One call of ``torch.compile(model, fullgraph=True, backend="aot_eager")``: whether it compiles
    in one graph and, when it does, its outputs against the eager ones (bit for bit) and what it
    showed the user (stdout, logs, warnings) against the unfixed model's eager run. aot_eager traces
    through AOTAutograd, as inductor does, without inductor's C++ compile time."""
    torch._dynamo.reset()
    out = {"backend": "aot_eager"}
    t0 = time.perf_counter()
    try:
        compiled = torch.compile(model, fullgraph=True, backend="aot_eager")
        events = []
        with torch.no_grad(), effects.capture(events):
            got = flatten(compiled(**inputs))
        out["ok"] = True
        if eager_out is not None:
            out["vs_eager"] = bitwise_compare(eager_out, got)
        if expected_effects is not None:
            out["effects_vs_before"] = compare_effects(expected_effects, events)
    except Exception as e:  # noqa: BLE001 - the failure is the finding
        out["ok"] = False
        out["error"] = "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[0][:300] if str(e).strip() else "")
    out["seconds"] = time.perf_counter() - t0
    torch._dynamo.reset()
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--family", required=True, choices=sorted(models.FAMILIES))
    ap.add_argument("--variant", required=True, help="before, safe or unsafe")
    ap.add_argument("--ref", required=True, help="folder of before's weights, inputs and outputs")
    ap.add_argument("--out", required=True, help="result JSON file")
    ap.add_argument("--iters", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1, help="torch intra-op threads (timings)")
    ap.add_argument("--no-compile", action="store_true", help="skip the inductor timing")
    ap.add_argument("--no-explain", action="store_true", help="skip the explain step (a timing-only pass)")
    ns = ap.parse_args(argv)

    import torch
    import torch._dynamo
    import transformers
    import dynamo_oracle as oracle

    torch.set_num_threads(ns.threads)
    package_dir = os.path.dirname(os.path.realpath(transformers.__file__))
    res = {"family": ns.family, "variant": ns.variant, "torch": torch.__version__, "threads": ns.threads,
           "transformers": transformers.__version__, "transformers_path": package_dir, "errors": []}
    os.makedirs(ns.ref, exist_ok=True)
    ref = lambda what: os.path.join(ns.ref, "%s-%s.pt" % (ns.family, what))  # noqa: E731
    before = ns.variant == "before"

    def write():
        with open(ns.out, "w", encoding="utf-8") as f:
            json.dump(res, f, indent=1)

    try:
        t0 = time.perf_counter()
        model, inputs = models.build(ns.family)
        if before:
            torch.save(model.state_dict(), ref("state"))
            torch.save(inputs, ref("inputs"))
        else:
            model.load_state_dict(torch.load(ref("state")), strict=True)
            inputs = torch.load(ref("inputs"))
        res["build_s"] = time.perf_counter() - t0
        res["parameters"] = sum(p.numel() for p in model.parameters())
    except Exception as e:  # noqa: BLE001
        res["errors"].append("build: %s: %s" % (type(e).__name__, str(e)[:300]))
        traceback.print_exc()
        write()
        return 1

    eager_out = None
    effects = model_effects(package_dir)
    before_effects = None
    try:
        eager_effects = []
        with torch.no_grad(), effects.capture(eager_effects):
            eager_out = flatten(model(**inputs))
        res["eager_effects"] = eager_effects
        if before:
            torch.save(eager_out, ref("eager"))
            with open(ref("effects").replace(".pt", ".json"), "w", encoding="utf-8") as f:
                json.dump(eager_effects, f)
        else:
            res["eager_vs_before"] = bitwise_compare(torch.load(ref("eager")), eager_out)
            with open(ref("effects").replace(".pt", ".json"), encoding="utf-8") as f:
                before_effects = json.load(f)
            res["eager_effects_vs_before"] = compare_effects(before_effects, eager_effects)
    except Exception as e:  # noqa: BLE001
        res["errors"].append("eager: %s: %s" % (type(e).__name__, str(e)[:300]))
        traceback.print_exc()

    if not ns.no_explain:
        t0 = time.perf_counter()
        res["explain"] = explain_breaks(torch, oracle, model, inputs, package_dir)
        res["explain"]["seconds"] = time.perf_counter() - t0
        if res["explain"]["error"]:
            res["errors"].append("explain: " + res["explain"]["error"])
    if not ns.no_explain:
        res["fullgraph"] = fullgraph_run(torch, model, inputs, effects, eager_out,
                                         before_effects if not before else res.get("eager_effects"))
    pkg = package_dir + os.sep
    res["loaded_files"] = sorted(os.path.relpath(os.path.realpath(m.__file__), pkg) for m in list(sys.modules.values())
                                 if getattr(m, "__file__", None) and os.path.realpath(m.__file__).startswith(pkg))
    write()

    if ns.no_compile:
        return 0
    try:
        res["eager_latency"] = timed_calls(model, inputs, ns.iters)
        torch._dynamo.reset()
        compiled = torch.compile(model, backend="inductor")
        t0, c0 = time.perf_counter(), cpu_seconds()
        with torch.no_grad():
            compiled_out = flatten(compiled(**inputs))
        res["first_call"] = {"wall": time.perf_counter() - t0, "cpu": cpu_seconds() - c0}
        res["compiled_latency"] = timed_calls(compiled, inputs, ns.iters)
        if eager_out is not None:
            res["compiled_vs_eager"] = bitwise_compare(eager_out, compiled_out)
        if before:
            torch.save(compiled_out, ref("compiled"))
        else:
            res["compiled_vs_before"] = bitwise_compare(torch.load(ref("compiled")), compiled_out)
    except Exception as e:  # noqa: BLE001
        res["errors"].append("compile: %s: %s" % (type(e).__name__, str(e)[:300]))
        traceback.print_exc()
    write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
