"""Reproduce GraphMend's Hugging Face evaluation with our tool: breaks before/after, outputs, compile time.

Run through ``eval/run.sh`` (which creates the evaluation environment and passes its python);
by hand: ``python3 eval/harness.py --python ENV_PYTHON [--families t5,bart] [--skip-compile]``.

Pipeline (every step records its failures and the run goes on):

1. ``before``: one ``eval/worker.py`` subprocess per model family, with a timeout, on the
   environment's pristine transformers: Dynamo's breaks (``torch._dynamo.explain`` plus the break
   log), eager and inductor outputs, first-call compile time and steady-state latency, and the
   transformers files the model loaded.
2. Static diagnostics: ``graphmend check --format json`` on each family's modeling file(s) plus
   every file that holds one of its Dynamo break sites (with their packages' ``__init__.py``, so
   re-exported helpers resolve), compared site by site with Dynamo: a
   Dynamo site is *flagged* when one of our diagnostics' ranges covers its line.
3. Fixes: the installed ``transformers`` folder is copied into a scratch folder per variant
   (``safe``: ``graphmend fix``; ``unsafe``: ``graphmend fix --unsafe-fixes``) and ``fix`` runs on
   the union of the files of step 2, in the copy; the environment is never written to. The diff of
   each copy against the original is saved. When ``fix`` is not implemented (exit 2, "not
   implemented") the variant is recorded as "fix unavailable" and not measured.
4. After, breaks and outputs: the worker again without inductor, with ``PYTHONPATH`` = the copy,
   loading ``before``'s weights and inputs and comparing eager outputs bit for bit. A model whose
   loaded files the fix left unchanged runs the same code as ``before`` (or as the safe variant),
   so that measurement is reused and marked as such instead of repeated.
5. After, timing: the worker once more (``--no-explain``) for inductor first-call and steady-state
   times and the compiled outputs, model by model while the time budget (``--budget-min``,
   estimated from each model's before run) lasts; a skipped timing is recorded as skipped.
6. ``results.json`` and the markdown report (``eval/report.py``).

The graphmend jar is copied into the scratch folder once at the start (the team may rebuild it
while this runs; a missing jar is waited for), so one run uses one build throughout.
"""

from __future__ import annotations

import argparse
import datetime
import difflib
import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import models  # noqa: E402
import report  # noqa: E402

VARIANTS = {"safe": [], "unsafe": ["--unsafe-fixes"]}
TIMING_KEYS = ["eager_latency", "first_call", "compiled_latency", "compiled_vs_eager", "compiled_vs_before"]


def log(msg):
    sys.stderr.write("[eval %s] %s\n" % (time.strftime("%H:%M:%S"), msg))
    sys.stderr.flush()


# ---------------------------------------------------------------------------------------------
# graphmend CLI


def stable_jar(src, scratch, waits=10):
    """Copy the jar into the scratch folder (waiting while it is being rebuilt); return the copy."""
    dst = os.path.join(scratch, "graphmend.jar")
    for attempt in range(waits + 1):
        try:
            shutil.copyfile(src, dst + ".tmp")
            os.replace(dst + ".tmp", dst)
            subprocess.run(["java", "-jar", dst, "--version"], check=True, capture_output=True, timeout=120)
            return dst
        except (OSError, subprocess.SubprocessError) as e:
            if attempt == waits:
                raise RuntimeError("graphmend jar unusable at %s: %s" % (src, e)) from e
            log("jar %s not usable yet (%s); waiting 30 s" % (src, type(e).__name__))
            time.sleep(30)
    return dst


def gm(jar, *args, timeout=1200):
    proc = subprocess.run(["java", "-jar", jar, *args], capture_output=True, text=True, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr


def check_json(jar, files):
    """{relative-or-absolute path: [diagnostics]} and the run's summary, from `check --format json`."""
    t0 = time.perf_counter()
    rc, out, err = gm(jar, "check", "--format", "json", *files)
    elapsed = time.perf_counter() - t0
    if rc not in (0, 1):
        return None, {"rc": rc, "error": (err or out).strip()[-500:], "seconds": elapsed}
    data = json.loads(out)
    by_file = {os.path.realpath(f["path"]): f.get("diagnostics", []) for f in data.get("files", [])}
    return by_file, {"rc": rc, "seconds": elapsed, "summary": data.get("summary"), "version": data.get("version")}


def package_inits(package_dir, rels):
    """The `__init__.py` of every package (inside `package_dir`, itself included) that holds one of
    `rels`, relative to `package_dir`, minus `rels` themselves."""
    out = set()
    for rel in rels:
        parts = rel.split("/")[:-1]
        for k in range(len(parts) + 1):
            init = "/".join(parts[:k] + ["__init__.py"])
            if os.path.isfile(os.path.join(package_dir, init)):
                out.add(init)
    return sorted(out - set(rels))


def flagged(diags, line1):
    """Diagnostics whose range covers the 1-based `line1` (ranges are 0-based, end inclusive)."""
    hits = []
    for d in diags:
        r = d.get("range", {})
        start, end = r.get("start", {}).get("line", -1) + 1, r.get("end", {}).get("line", -2) + 1
        if start <= line1 <= end:
            hits.append(d)
    return hits


# ---------------------------------------------------------------------------------------------
# Workers


def run_worker(py, family, variant, scratch, timeout, iters, threads=1, flags=(), pythonpath=None, tag=None):
    """Run eval/worker.py for one (family, variant) in its own process; return its result dict."""
    tag = tag or variant
    out = os.path.join(scratch, "results", "%s-%s.json" % (family, tag))
    logf = os.path.join(scratch, "logs", "%s-%s.log" % (family, tag))
    cache = os.path.join(scratch, "inductor", "%s-%s" % (family, tag))
    if os.path.exists(out):
        os.remove(out)
    shutil.rmtree(cache, ignore_errors=True)
    os.makedirs(cache)
    env = dict(os.environ)
    env.update(TORCHINDUCTOR_CACHE_DIR=cache, TORCHINDUCTOR_FX_GRAPH_CACHE="0",
               TORCHINDUCTOR_AUTOGRAD_CACHE="0", TRITON_CACHE_DIR=os.path.join(cache, "triton"),
               HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false",
               OMP_NUM_THREADS=str(threads), TORCHINDUCTOR_COMPILE_THREADS="1")
    env.pop("PYTHONPATH", None)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    cmd = [py, os.path.join(HERE, "worker.py"), "--family", family, "--variant", variant,
           "--ref", os.path.join(scratch, "ref"), "--out", out, "--iters", str(iters),
           "--threads", str(threads), *flags]
    t0 = time.perf_counter()
    status = "ok"
    with open(logf, "w", encoding="utf-8") as lf:
        try:
            proc = subprocess.run(cmd, stdout=lf, stderr=subprocess.STDOUT, timeout=timeout, env=env, cwd=scratch)
            if proc.returncode != 0:
                status = "exit %d" % proc.returncode
        except subprocess.TimeoutExpired:
            status = "timeout after %d s" % timeout
    wall = time.perf_counter() - t0
    result = {}
    if os.path.exists(out):
        with open(out, encoding="utf-8") as f:
            result = json.load(f)
    result.update(status=status, wall_s=wall, log=logf)
    if status != "ok":
        with open(logf, encoding="utf-8", errors="replace") as f:
            result["log_tail"] = f.read()[-1500:]
    shutil.rmtree(cache, ignore_errors=True)
    return result


# ---------------------------------------------------------------------------------------------
# Fix variants


def make_copy(package_dir, dest_root):
    """A fresh copy of the transformers package under dest_root; return the copy's folder."""
    shutil.rmtree(dest_root, ignore_errors=True)
    dest = os.path.join(dest_root, "transformers")
    shutil.copytree(package_dir, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return dest


def diff_copy(package_dir, copy_dir, rel_files):
    """Unified diff of the rewritten files against the originals, and the changed files' names."""
    chunks, changed = [], []
    for rel in rel_files:
        with open(os.path.join(package_dir, rel), encoding="utf-8") as f:
            a = f.read().splitlines(keepends=True)
        with open(os.path.join(copy_dir, rel), encoding="utf-8") as f:
            b = f.read().splitlines(keepends=True)
        if a != b:
            changed.append(rel)
            chunks.extend(difflib.unified_diff(a, b, "a/transformers/" + rel, "b/transformers/" + rel))
    return "".join(chunks), changed


def run_fix(jar, package_dir, scratch, variant, rel_files, fix_cmd=None):
    """Copy, fix, diff; returns the variant's fix record (with 'available' False if fix is missing).

    `fix_cmd` (a shell-style command prefix) replaces `java -jar JAR fix`; it exists to test the
    after-side of the harness with a stand-in rewriter while `graphmend fix` is being built.
    """
    copy_dir = make_copy(package_dir, os.path.join(scratch, "copies", variant))
    paths = [os.path.join(copy_dir, rel) for rel in rel_files]
    t0 = time.perf_counter()
    if fix_cmd:
        proc = subprocess.run(shlex.split(fix_cmd) + VARIANTS[variant] + paths, capture_output=True, text=True,
                              timeout=1200)
        rc, out, err = proc.returncode, proc.stdout, proc.stderr
    else:
        rc, out, err = gm(jar, "fix", *VARIANTS[variant], *paths)
    record = {"variant": variant, "flags": VARIANTS[variant], "command": fix_cmd or "graphmend fix", "rc": rc,
              "seconds": time.perf_counter() - t0,
              "files": rel_files, "copy": os.path.dirname(copy_dir),
              "output_tail": (out + err).strip()[-1500:]}
    text = (out + err).lower()
    if rc == 2 and ("not implemented" in text or "unknown command" in text):
        record.update(available=False, reason="fix unavailable: " + (out + err).strip().splitlines()[0][:200])
        return record
    if rc not in (0, 1):
        record.update(available=False, reason="fix failed with exit %d" % rc)
        return record
    diff, changed = diff_copy(package_dir, copy_dir, rel_files)
    diff_path = os.path.join(scratch, "fix-%s.diff" % variant)
    with open(diff_path, "w", encoding="utf-8") as f:
        f.write(diff)
    bad = []
    for rel in changed:
        proc = subprocess.run([sys.executable, "-m", "py_compile", os.path.join(copy_dir, rel)],
                              capture_output=True, text=True)
        if proc.returncode:
            bad.append(rel)
    record.update(available=True, changed_files=changed, diff=diff_path,
                  diff_lines=sum(1 for l in diff.splitlines() if l[:1] in "+-" and l[:3] not in ("+++", "---")),
                  not_compiling=bad)
    return record


def reuse_source(loaded, variant, available, fixes):
    """Which earlier measurement runs exactly the code this variant would run for a model, if any.

    'before' when the fix changed none of the transformers files the model loaded (from its
    before run); an earlier variant when every loaded file has the same text in both copies.
    None when the model must be measured (or the loaded files are unknown).
    """
    if not loaded:
        return None
    loaded = set(loaded)
    mine = fixes[variant]
    if not loaded & set(mine["changed_files"]):
        return "before"
    for other in available[:available.index(variant)]:
        theirs = fixes[other]
        touched = loaded & (set(mine["changed_files"]) | set(theirs["changed_files"]))
        if all(_same_file(os.path.join(mine["copy"], "transformers", rel),
                          os.path.join(theirs["copy"], "transformers", rel)) for rel in touched):
            return other
    return None


def _same_file(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


# ---------------------------------------------------------------------------------------------
# Main


def env_info(py):
    code = ("import json, os, platform, sys, torch, transformers; print(json.dumps({'torch': torch.__version__, "
            "'transformers': transformers.__version__, 'python': sys.version.split()[0], "
            "'package_dir': os.path.dirname(os.path.realpath(transformers.__file__)), "
            "'threads': torch.get_num_threads()}))")
    out = subprocess.run([py, "-c", code], capture_output=True, text=True, check=True, timeout=300,
                         env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"}).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", required=True, help="the evaluation environment's python (eval/env.sh)")
    ap.add_argument("--jar", default=os.path.join(ROOT, "server", "target", "graphmend.jar"))
    ap.add_argument("--families", default=",".join(models.FAMILIES), help="comma-separated subset")
    ap.add_argument("--scratch", default=os.path.join(os.environ.get("XDG_CACHE_HOME") or
                                                      os.path.expanduser("~/.cache"), "graphmend", "eval-scratch"))
    ap.add_argument("--results", default=os.path.join(HERE, "results.json"))
    ap.add_argument("--markdown", default=os.path.join(HERE, "evaluation.md"))
    ap.add_argument("--timeout", type=int, default=600, help="seconds per model and variant")
    ap.add_argument("--iters", type=int, default=10, help="timed calls for steady-state latency")
    ap.add_argument("--threads", type=int, default=1, help="torch threads in the workers")
    ap.add_argument("--fix-cmd", help="stand-in for `graphmend fix` (testing the harness only)")
    ap.add_argument("--budget-min", type=int, default=55,
                    help="after-variant timings are skipped once they would end past this many minutes")
    ap.add_argument("--skip-compile", action="store_true", help="breaks and outputs only, no inductor timing")
    ap.add_argument("--baseline", help="results.json of the paper's transformers, shown beside a run on another "
                                       "release (eval/run.sh --newest)")
    ns = ap.parse_args(argv)

    started = time.perf_counter()
    families = [f for f in ns.families.split(",") if f]
    unknown = [f for f in families if f not in models.FAMILIES]
    if unknown:
        ap.error("unknown families: " + ", ".join(unknown))
    for sub in ("results", "logs", "ref", "inductor"):
        os.makedirs(os.path.join(ns.scratch, sub), exist_ok=True)

    info = env_info(ns.python)
    package_dir = info["package_dir"]
    jar = stable_jar(ns.jar, ns.scratch)
    _, gm_version, _ = gm(jar, "--version")
    gm_version = gm_version.strip().replace("graphmend ", "", 1)
    log("torch %s, transformers %s at %s; graphmend %s" % (info["torch"], info["transformers"], package_dir,
                                                          gm_version.strip()))
    results = {
        "generated": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "environment": dict(info, graphmend=gm_version.strip(), machine=platform.machine(),
                            cpus=os.cpu_count(), iters=ns.iters, timeout_s=ns.timeout,
                            skip_compile=ns.skip_compile, worker_threads=ns.threads,
                            budget_min=ns.budget_min),
        "models": {}, "fix": {},
    }

    # 1. before
    for fam in families:
        log("before: %s" % fam)
        r = run_worker(ns.python, fam, "before", ns.scratch, ns.timeout, ns.iters, ns.threads,
                       flags=["--no-compile"] if ns.skip_compile else [])
        label, files, _ = models.FAMILIES[fam]
        results["models"][fam] = {"label": label, "modeling_files": files, "before": r}
        log("  %s: %s, %s break site(s) in %.0f s" % (fam, r["status"],
                                                      len(r.get("explain", {}).get("sites", [])), r["wall_s"]))

    # 2. static diagnostics next to Dynamo's sites
    all_files = []
    for fam in families:
        m = results["models"][fam]
        site_files = [s["file"] for s in m["before"].get("explain", {}).get("sites", []) if s["in_transformers"]]
        m["checked_files"] = sorted(set(m["modeling_files"]) | set(site_files))
        # the packages' __init__ files go with them, so imports through re-exports resolve (transformers
        # 5.x models import helpers `from ...utils import ...`) as in a check of the whole package
        m["package_inits"] = package_inits(package_dir, m["checked_files"])
        all_files.extend(m["checked_files"] + m["package_inits"])
        by_file, meta = check_json(jar, [os.path.join(package_dir, rel)
                                         for rel in m["checked_files"] + m["package_inits"]])
        m["check"] = meta
        if by_file is None:
            log("  check failed for %s: %s" % (fam, meta["error"]))
            continue
        diags = {rel: by_file.get(os.path.realpath(os.path.join(package_dir, rel)), []) for rel in m["checked_files"]}
        m["check"]["diagnostics"] = {rel: [{"code": d["code"], "line": d["range"]["start"]["line"] + 1,
                                            "message": d.get("message", "")[:200],
                                            "fixes": [x.get("safety") for x in d.get("fixes", [])],
                                            "noFixReason": d.get("noFixReason")} for d in ds]
                                     for rel, ds in diags.items()}
        for s in m["before"].get("explain", {}).get("sites", []):
            hits = flagged(diags.get(s["file"], []), s["line"]) if s["in_transformers"] else []
            s["graphmend"] = [{"code": d["code"], "fixes": [x.get("safety") for x in d.get("fixes", [])],
                               "noFixReason": d.get("noFixReason")} for d in hits]
    all_files = sorted(set(all_files))

    # 3. fixes, each variant in its own copy
    available = []
    for variant in VARIANTS:
        log("fix (%s) on %d file(s) in a copy" % (variant, len(all_files)))
        rec = run_fix(jar, package_dir, ns.scratch, variant, all_files, ns.fix_cmd)
        results["fix"][variant] = rec
        if rec["available"]:
            available.append(variant)
            log("  changed %d file(s), %d diff line(s)" % (len(rec["changed_files"]), rec["diff_lines"]))
        else:
            log("  %s" % rec["reason"])

    # 4. after: breaks and eager outputs for every model (cheap), reusing runs of identical code
    for variant in available:
        rec = results["fix"][variant]
        for fam in families:
            m = results["models"][fam]
            source = reuse_source(m["before"].get("loaded_files"), variant, available, results["fix"])
            if source:
                m[variant] = dict(m[source], reused_from=source)
                log("%s: %s runs the same code as %s; reused" % (variant, fam, source))
                continue
            log("%s: %s" % (variant, fam))
            r = run_worker(ns.python, fam, variant, ns.scratch, ns.timeout, ns.iters, ns.threads,
                           flags=["--no-compile"], pythonpath=rec["copy"])
            if r.get("transformers_path") and not r["transformers_path"].startswith(os.path.realpath(rec["copy"])):
                r.setdefault("errors", []).append("imported %s, not the fixed copy" % r["transformers_path"])
            m[variant] = r
            log("  %s: %s, %s break(s) at %s site(s) in %.0f s" % (
                fam, r["status"], r.get("explain", {}).get("graph_break_count"),
                len(r.get("explain", {}).get("sites", [])), r["wall_s"]))

    # 5. after: inductor timing while the time budget lasts (estimated from the model's before run)
    deadline = started + ns.budget_min * 60
    for fam in families if not ns.skip_compile else []:
        m = results["models"][fam]
        for variant in available:
            r = m[variant]
            if r.get("reused_from") or r.get("status") != "ok":
                continue
            estimate = m["before"].get("wall_s", 0)
            if time.perf_counter() + estimate > deadline:
                r["compile_skipped"] = "time budget (%d min) would be exceeded" % ns.budget_min
                log("timing %s/%s skipped: budget" % (fam, variant))
                continue
            log("timing %s: %s" % (variant, fam))
            t = run_worker(ns.python, fam, variant, ns.scratch, ns.timeout, ns.iters, ns.threads,
                           flags=["--no-explain"], pythonpath=results["fix"][variant]["copy"],
                           tag=variant + "-timing")
            for key in TIMING_KEYS:
                if key in t:
                    r[key] = t[key]
            r["timing_status"], r["timing_wall_s"] = t["status"], t["wall_s"]
            r["errors"] = r.get("errors", []) + [e for e in t.get("errors", []) if e.startswith("compile")]

    # The diffs go next to the results file, so the evaluation can be read without the scratch folder.
    for variant in available:
        rec = results["fix"][variant]
        kept = os.path.join(os.path.dirname(os.path.abspath(ns.results)), "fix-%s.diff" % variant)
        shutil.copyfile(rec["diff"], kept)
        rec["diff"] = os.path.relpath(kept, ROOT) if kept.startswith(ROOT + os.sep) else kept

    results["wall_s"] = time.perf_counter() - started
    with open(ns.results, "w", encoding="utf-8") as f:
        json.dump(results, f, indent=1, sort_keys=False)
        f.write("\n")
    baseline = None
    if ns.baseline and os.path.exists(ns.baseline):
        with open(ns.baseline, encoding="utf-8") as f:
            baseline = json.load(f)
    with open(ns.markdown, "w", encoding="utf-8") as f:
        f.write(report.render(results, baseline))
    log("done in %.0f s: %s, %s" % (results["wall_s"], ns.results, ns.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
