#!/usr/bin/env python3
"""The Dynamo sweep: every model class the catalog can build, under real TorchDynamo.

    eval/sweep/run.sh [--torch 2.10.0] [--libs transformers,timm] [--limit N] [--sample]

(``run.sh`` makes the environment and calls this with ``--python``.) For each entry of
``catalog.entries(lib)`` it runs ``model_worker.py`` in a subprocess with a timeout and merges its
result into ``eval/sweep/out/torch-VERSION/LIB.json``, written after every entry, so a run can be
stopped and resumed: entries already in the results file are skipped (``--rerun`` runs them again).
``--part K/N`` runs every N-th entry from the K-th, for runs split over sessions or machines.
``--sample`` runs only the fixed CI sample (``SAMPLE`` below) into ``out/sample-torch-VERSION``.
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
OUT = os.path.join(HERE, "out")
LIBS = ("transformers", "timm", "diffusers", "torchvision", "torch_geometric")
BATCH = 25  # entries per worker process (each still in a forked child of its own)

# The CI sample: classes chosen for the kinds of breaks they show on the full sweep (logging,
# data-dependent branches, scalar reads, dynamic shapes, untraceable calls) and for running in
# seconds; fixed so CI compares like with like.
SAMPLE = [
    "transformers:bert:BertModel",
    "transformers:gpt2:GPT2LMHeadModel",
    "transformers:t5:T5Model",
    "transformers:bart:BartForConditionalGeneration",
    "transformers:vit:ViTModel",
    "transformers:wav2vec2:Wav2Vec2ForCTC",
    "transformers:llama:LlamaForCausalLM",
    "transformers:longformer:LongformerModel",
    "transformers:funnel:FunnelModel",
    "transformers:reformer:ReformerModel",
    "timm:resnet:resnet18",
    "timm:vision_transformer:vit_tiny_patch16_224",
    "timm:efficientnet:efficientnet_b0",
    "diffusers:UNet2DModel:UNet2DModel",
    "diffusers:AutoencoderKL:AutoencoderKL",
    "torchvision:detection.retinanet:retinanet_resnet50_fpn",
    "torch_geometric:pool:TopKPooling",
    "torch_geometric:models:LabelPropagation",
    "torch_geometric:norm:GraphNorm",
]


def log(msg):
    sys.stderr.write("[sweep] %s\n" % msg)
    sys.stderr.flush()


def list_entries(py, lib):
    code = "import json, catalog; print(json.dumps(catalog.entries(%r)))" % lib
    r = subprocess.run([py, "-c", code], cwd=HERE, capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, PYTHONPATH=HERE))
    if r.returncode != 0:
        raise SystemExit("cannot list %s entries:\n%s" % (lib, r.stderr[-3000:]))
    return json.loads(r.stdout.strip().splitlines()[-1])


def load(path):
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    return None


def save(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = "%s.%d.tmp" % (path, os.getpid())
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def merge_entry(path, lib, torch_version, entry, res, catalog_size):
    """Adds one result to the library's results file under a lock, so parts run side by side
    (``--part 1/2`` and ``--part 2/2``) share one file without losing each other's entries."""
    import fcntl

    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = load(path) or {"lib": lib, "torch": torch_version, "entries": {}}
        data["entries"][entry] = res
        data["catalog_size"] = max(data.get("catalog_size", 0), catalog_size)
        if res.get("version"):
            data["version"] = res["version"]
        save(path, data)


def run_batch(py, entries, timeout, scratch):
    """{entry: result} of one batch of entries, each run in a forked child of one worker."""
    sys.path.insert(0, HERE)
    import model_worker  # only for result_path: the worker itself runs in the sweep environment

    out_dir = os.path.join(scratch, "results")
    os.makedirs(out_dir, exist_ok=True)
    for e in entries:
        for ext in (".json", ".status"):
            p = model_worker.result_path(out_dir, e)[:-5] + ext
            if os.path.exists(p):
                os.remove(p)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, dir=scratch) as f:
        f.write("\n".join(entries) + "\n")
        batch = f.name
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=os.path.join(scratch, "inductor"),
               TRANSFORMERS_VERBOSITY="error", HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false",
               OMP_NUM_THREADS="1", PYTHONHASHSEED="0", PYTHONWARNINGS="ignore")
    cmd = [py, os.path.join(HERE, "model_worker.py"), "--batch", batch, "--out-dir", out_dir,
           "--timeout", str(timeout)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        for line in proc.stdout:
            yield line.split("\t", 1)[0], _collect(model_worker, out_dir, line.split("\t", 1)[0], timeout)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.remove(batch)


def _collect(model_worker, out_dir, entry, timeout):
    path = model_worker.result_path(out_dir, entry)
    res = load(path) or {"entry": entry, "modes": {}, "errors": []}
    st = load(path[:-5] + ".status") or {}
    res["wall_s"] = st.get("wall_s")
    if st.get("exit") == "timeout":
        # What finished before the timeout (eval mode, say) is kept; the entry says it was cut.
        res["status"] = "partial" if res.get("modes") else "timeout"
        res["reason"] = "timed out after %d s" % timeout
    elif st.get("exit") != 0 or res.get("status") is None:
        res["status"] = "partial" if res.get("modes") else "crashed"
        try:
            with open(path[:-5] + ".log", encoding="utf-8", errors="replace") as lf:
                tail = [l for l in lf.read()[-2000:].splitlines() if l.strip()]
        except OSError:
            tail = []
        res["reason"] = "worker exit %s: %s" % (st.get("exit"), tail[-1][:300] if tail else "")
    return res


def breadth_first(entries):
    """Base models of every family first, then each family's first head, and so on (the catalog
    lists a family's base model before its heads): a run cut short covers the most families."""
    seen = {}
    ranked = []
    for i, e in enumerate(entries):
        family = e.rsplit(":", 1)[0]
        ranked.append((seen.get(family, 0), i, e))
        seen[family] = seen.get(family, 0) + 1
    return [e for _, _, e in sorted(ranked)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", required=True, help="the sweep environment's python (eval/sweep/env.sh)")
    ap.add_argument("--libs", default=",".join(LIBS))
    ap.add_argument("--limit", type=int, default=0, help="at most N new entries per library")
    ap.add_argument("--part", default="1/1", help="K/N: every N-th entry starting at the K-th")
    ap.add_argument("--sample", action="store_true", help="the fixed CI sample only")
    ap.add_argument("--entries", default="", help="comma-separated entries to run (instead of the catalog)")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per entry")
    ap.add_argument("--rerun", action="store_true", help="run entries already in the results again")
    ap.add_argument("--out", default="", help="results folder (default out/torch-VERSION)")
    ns = ap.parse_args(argv)

    r = subprocess.run([ns.python, "-c", "import torch; print(torch.__version__.split('+')[0])"],
                       capture_output=True, text=True, check=True)
    torch_version = r.stdout.strip()
    out_dir = ns.out or os.path.join(OUT, ("sample-torch-%s" if ns.sample else "torch-%s") % torch_version)
    scratch = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "graphmend",
                           "sweep-scratch-" + torch_version)
    os.makedirs(scratch, exist_ok=True)
    k, n = (int(x) for x in ns.part.split("/"))
    chosen = [e.strip() for e in ns.entries.split(",") if e.strip()] or (SAMPLE if ns.sample else None)
    start = time.perf_counter()
    totals = {}
    for lib in ns.libs.split(","):
        if chosen is not None:
            todo_all = [e for e in chosen if e.startswith(lib + ":")]
        else:
            todo_all = list_entries(ns.python, lib)
        full = breadth_first(todo_all)
        todo_all = full[k - 1::n]
        path = os.path.join(out_dir, lib + ".json")
        data = load(path) or {"lib": lib, "torch": torch_version, "entries": {}}
        catalog_size = len(full)
        todo = [e for e in todo_all if ns.rerun or e not in data["entries"]]
        if ns.limit:
            todo = todo[:ns.limit]
        log("%s: %d entries, %d to run (torch %s) -> %s" % (lib, len(todo_all), len(todo), torch_version, path))
        done = 0
        for start_i in range(0, len(todo), BATCH):
            for entry, res in run_batch(ns.python, todo[start_i:start_i + BATCH], ns.timeout, scratch):
                done += 1
                i = done
                merge_entry(path, lib, torch_version, entry, res, catalog_size)
                sites = sum(len(m.get("sites", [])) for m in res.get("modes", {}).values())
                log("[%s %d/%d] %s: %s, %d site(s), %.0f s%s" % (
                    lib, i, len(todo), entry, res["status"], sites, res["wall_s"] or 0,
                    (" (" + res["reason"][:120] + ")") if res.get("reason") and res["status"] != "ran" else ""))
        data = load(path) or {"entries": {}}
        ran = sum(1 for e in data["entries"].values() if e["status"] in ("ran", "partial"))
        totals[lib] = ran
        log("%s: %d of %d entries ran" % (lib, ran, len(data["entries"])))
    log("done in %.0f s: %s" % (time.perf_counter() - start, totals))
    return 0


if __name__ == "__main__":
    sys.exit(main())
