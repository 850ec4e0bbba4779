"""Cold start and steady state of the evaluation's models on a GPU, before and after ``graphmend fix``.

The evaluation (``eval/harness.py``) runs on the project's 2-core CPU machine; the paper's cold-start
and throughput claims are about GPUs. This script measures them where a CUDA device is at hand
(a device machine lent to a session; it is not part of CI):

    python3 eval/gpu_cold_start.py --site SITE --fixed FIXED --families t5,bart --out OUT.json

``SITE`` holds the pristine ``transformers`` (and the versions of its dependencies it needs);
``FIXED`` holds a ``transformers`` package that ``graphmend fix`` rewrote (put before ``SITE`` on
the path). Each (family, variant) runs in a fresh process with fresh inductor and Triton caches
(FX graph and AOTAutograd caches off), so the first call compiles everything from nothing:

- ``first_call_s``: ``torch.compile(model)`` plus the first call, until the GPU is done (wall);
- ``graphs`` / ``breaks``: what Dynamo compiled (its ``unique_graphs`` and ``graph_break`` counters);
- ``compiled_ms`` / ``eager_ms``: median wall time of 30 calls after 3 warm-ups, synchronised;
- ``eager_vs_before``: the fixed variant's eager outputs against ``before``'s, bit for bit (a safe
  fix must not change them); ``compiled_vs_eager``: the largest difference of the compiled outputs
  (inductor's GPU kernels are not bitwise equal to eager ones, before or after a fix).

The variants of a family run back to back, ``before`` first (its eager outputs are the reference).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def one(ns):
    """Child: measure one family in one variant; prints one JSON object."""
    sys.path.insert(0, HERE)
    import models  # noqa: E402
    import worker  # noqa: E402  (flatten, bitwise_compare)
    import torch
    import transformers

    res = {"family": ns.family, "variant": ns.variant, "torch": torch.__version__,
           "transformers": transformers.__version__, "transformers_path": os.path.dirname(transformers.__file__),
           "device": torch.cuda.get_device_name(0) if ns.device == "cuda" else ns.device}
    dev = torch.device(ns.device)

    def sync():
        if ns.device == "cuda":
            torch.cuda.synchronize()

    def timed(fn, inputs, iters=30):
        with torch.no_grad():
            for _ in range(3):
                fn(**inputs)
            sync()
            walls = []
            for _ in range(iters):
                t0 = time.perf_counter()
                fn(**inputs)
                sync()
                walls.append(time.perf_counter() - t0)
        return 1000 * statistics.median(walls)

    model, inputs = models.build(ns.family)
    model = model.to(dev)
    inputs = {k: v.to(dev) if isinstance(v, torch.Tensor) else v for k, v in inputs.items()}
    with torch.no_grad():
        eager = [(n, t.detach().cpu()) for n, t in worker.flatten(model(**inputs))]
    ref = os.path.join(ns.ref, ns.family + ".pt")
    if ns.variant == "before":
        torch.save(eager, ref)
    elif os.path.exists(ref):
        res["eager_vs_before"] = worker.bitwise_compare(torch.load(ref), eager)
    res["eager_ms"] = timed(model, inputs)

    torch._dynamo.reset()
    counters = torch._dynamo.utils.counters
    counters.clear()
    t0 = time.perf_counter()
    compiled = torch.compile(model)
    with torch.no_grad():
        out = compiled(**inputs)
    sync()
    res["first_call_s"] = time.perf_counter() - t0
    res["graphs"] = int(counters["stats"]["unique_graphs"])
    res["breaks"] = int(sum(counters["graph_break"].values()))
    res["break_reasons"] = sorted(set(str(k)[:160] for k in counters["graph_break"]))[:8]
    res["compiled_vs_eager"] = worker.bitwise_compare(eager, [(n, t.detach().cpu()) for n, t in worker.flatten(out)])
    res["compiled_ms"] = timed(compiled, inputs)
    print(json.dumps(res))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", required=True, help="folder holding the pristine transformers")
    ap.add_argument("--fixed", required=True, help="folder holding the transformers graphmend fix rewrote")
    ap.add_argument("--families", default="t5,whisper,bart,biogpt")
    ap.add_argument("--out", required=True, help="results JSON (rewritten after each run)")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per family and variant")
    ap.add_argument("--budget-s", type=int, default=420, help="start no run after this many seconds")
    ap.add_argument("--one", nargs=2, metavar=("FAMILY", "VARIANT"), help=argparse.SUPPRESS)
    ap.add_argument("--ref", help=argparse.SUPPRESS)
    ns = ap.parse_args(argv)
    if ns.one:
        ns.family, ns.variant = ns.one
        return one(ns)

    start = time.perf_counter()
    ref = tempfile.mkdtemp(prefix="gm-gpu-ref-")
    runs = []
    for fam in ns.families.split(","):
        for variant in ("before", "fixed"):
            if time.perf_counter() - start > ns.budget_s:
                runs.append({"family": fam, "variant": variant, "error": "not run: the time budget was spent"})
                continue
            caches = tempfile.mkdtemp(prefix="gm-gpu-cache-")
            env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=os.path.join(caches, "inductor"),
                       TRITON_CACHE_DIR=os.path.join(caches, "triton"), TORCHINDUCTOR_FX_GRAPH_CACHE="0",
                       TORCHINDUCTOR_AUTOGRAD_CACHE="0", PYTHONUNBUFFERED="1",
                       PYTHONPATH=os.pathsep.join(([ns.fixed] if variant == "fixed" else []) + [ns.site]))
            t0 = time.perf_counter()
            try:
                p = subprocess.run([sys.executable, os.path.abspath(__file__), "--site", ns.site, "--fixed", ns.fixed,
                                    "--out", ns.out, "--device", ns.device, "--one", fam, variant, "--ref", ref],
                                   env=env, capture_output=True, text=True, timeout=ns.timeout)
                lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
                r = json.loads(lines[-1]) if lines else {"family": fam, "variant": variant,
                                                         "error": "exit %d: %s" % (p.returncode, p.stderr[-800:])}
            except subprocess.TimeoutExpired:
                r = {"family": fam, "variant": variant, "error": "timed out after %d s" % ns.timeout}
            r["process_s"] = time.perf_counter() - t0
            runs.append(r)
            print(json.dumps({k: r.get(k) for k in ("family", "variant", "graphs", "breaks", "first_call_s",
                                                     "eager_ms", "compiled_ms", "error")}), flush=True)
            with open(ns.out, "w") as f:
                json.dump({"runs": runs, "wall_s": time.perf_counter() - start}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
