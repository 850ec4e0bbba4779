#!/usr/bin/env python3
"""GraphMend's seeded mutation fuzzer (issue 40). Documentation: docs/fuzzing.md.

  python3 tools/fuzz/fuzz.py --jar server/target/graphmend.jar --seed S --inputs N
        [--time-limit SEC] [--corpus-out DIR] [--report FILE]
  python3 tools/fuzz/fuzz.py --jar JAR --seed S --only I [--dump FILE]   # one input again
  python3 tools/fuzz/fuzz.py --jar JAR --judge FILE                      # any file

Each input is a seed file (CPython 3.13's standard library, examples/*.py) with 1-3 mutations
(tools/fuzz/mutate.py), a pure function of (seed, index). Each is judged by CPython 3.13
(compile(..., ast.PyCF_ONLY_AST)) and by `check --format json` (batches of --batch files per
JVM); a sample of the inputs CPython accepts is also fixed with `fix --unsafe-fixes` twice.
Failures are minimised (ddmin by lines, then bytes; bounded time) and reported with a repro
command. Exit status: 0 no failure, 1 failures, 2 the run could not be made (no CPython 3.13:
ORACLE NOT RUN) or did not finish within --time-limit.
"""

import argparse
import collections
import datetime
import glob
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import gm  # noqa: E402
import mutate  # noqa: E402

ROOT = HERE.parents[1]

CHECK_CATEGORIES = {"crash", "hang", "invalid-json", "missing", "unexpected-stderr"}


def find_cpython():
    env = os.environ.get("GRAPHMEND_FUZZ_PYTHON")
    if env:
        return env
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    cands = sorted(glob.glob(os.path.join(root, "versions", "3.13.*", "bin", "python3")))
    return cands[0] if cands else None


def oracle_not_run(why):
    bar = "!" * 100
    print(bar, file=sys.stderr)
    print("!!! ORACLE NOT RUN: the fuzzer (CPython 3.13 as the judge of every input): %s. "
          "To run it: pyenv install 3.13 (or set GRAPHMEND_FUZZ_PYTHON to a CPython 3.13 python3)." % why,
          file=sys.stderr)
    print(bar, file=sys.stderr)
    log = os.environ.get("GRAPHMEND_NOT_RUN_LOG")
    if log:
        with open(log, "a") as f:
            f.write("ORACLE NOT RUN: fuzzer: %s. To run it: pyenv install 3.13.\n" % why)
    return 2


# ------------------------------------------------------------------ judging


class Judge:
    def __init__(self, args, cpython_path, workdir):
        self.args = args
        self.cpython = gm.CPython(cpython_path)
        self.jar = gm.Jar(args.jar, java=args.java, java_opts=args.java_opts.split() if args.java_opts is not None else None)
        self.workdir = workdir

    def judge_batch(self, items, fix_names):
        """items: name -> bytes. Returns name -> {"cpython", "ours", "failures": [(cat, detail)], ...}."""
        out = {}
        cdir = Path(tempfile.mkdtemp(prefix="cpy-", dir=self.workdir))
        for name, data in items.items():
            p = cdir / name
            p.write_bytes(data)
            out[name] = {"cpython": self.cpython.judge(p), "failures": []}
        shutil.rmtree(cdir, ignore_errors=True)
        checked = gm.check_batch(self.jar, items, self.workdir)
        for name, r in checked.items():
            o = out[name]
            o["ours"] = r["ours"]
            o["failures"] += r["problems"]
            cv = o["cpython"]["verdict"]
            if not r["problems"] and cv in ("accept", "reject") and r["ours"] in ("accept", "reject") and r["ours"] != cv:
                if cv == "accept":
                    first = next((x for x in r["diags"] if x.get("code") == "GM000"), None)
                    why = ("GM000 %s at %s" % (first.get("message"), first.get("range", {}).get("start"))
                           if first else "not read: %s" % r.get("error"))
                    o["failures"].append(("cpython-accepts-we-reject", why))
                else:
                    o["failures"].append(("cpython-rejects-we-accept", o["cpython"].get("error", "")))
        fix_items = {n: items[n] for n in fix_names
                     if out[n]["cpython"]["verdict"] == "accept" and out[n].get("ours") == "accept" and not out[n]["failures"]}
        if fix_items:
            fixed = gm.fix_batch(self.jar, self.cpython, fix_items, self.workdir)
            for name, r in fixed.items():
                out[name]["fixed"] = True
                out[name]["fix_changed"] = r.get("changed", False)
                out[name]["failures"] += r["problems"]
        return out

    def categories(self, data, fix):
        r = self.judge_batch({"m.py": data}, ["m.py"] if fix else [])["m.py"]
        return {c for c, _ in r["failures"]}

    def close(self):
        self.cpython.close()


# ------------------------------------------------------------------ minimisation


def _split(units, n):
    k, m = divmod(len(units), n)
    out, i = [], 0
    for j in range(n):
        size = k + (1 if j < m else 0)
        out.append((i, i + size))
        i += size
    return out


RUN_RE = re.compile(rb"((.{1,8}?)\2{15,})", re.S)
CLOSERS = {b"(": b")", b"[": b"]", b"{": b"}", b"f(": b")"}


def _halved_runs(data):
    """Candidates with one run of a repeated unit (16 or more repeats) halved, longest run first;
    a run of an opening bracket loses as many of the closing brackets of the next closing run."""
    runs = []
    for m in RUN_RE.finditer(data):
        unit = m.group(2)
        runs.append((m.start(), m.end(), unit, (m.end() - m.start()) // len(unit)))
    runs.sort(key=lambda r: -(r[1] - r[0]))
    out = []
    for start, end, unit, n in runs[:10]:
        for k in (n // 2, n // 4, n // 8):
            if k < 1:
                continue
            if unit in CLOSERS:
                closer = CLOSERS[unit]
                j = data.find(closer * k, end)
                if j < 0:
                    continue
                out.append(data[:start] + unit * (n - k) + data[end:j] + data[j + len(closer) * k:])
            elif unit.strip(b")]}") == b"":
                break  # closing runs go with their opening run
            else:
                out.append(data[:start] + unit * (n - k) + data[end:])
    return out


def minimise(judge, data, category, fix, budget_s, max_batch=40):
    """Halving of long repetitions, then ddmin (complements only, all of one granularity judged in
    one JVM) by lines then bytes, keeping inputs that still fail with `category`. Returns (bytes,
    seconds, complete)."""
    t0 = time.monotonic()
    fix_cat = category.startswith("fix-")

    whole_run = category in ("crash", "hang", "invalid-json", "fix-crash", "fix-hang")

    def still_fail(cands):
        if whole_run:  # a candidate that fails takes its JVM down: one at a time, to the first hit
            out = []
            for c in cands:
                r = judge.judge_batch({"c.py": c}, ["c.py"] if fix_cat else [])["c.py"]
                out.append(category in {x for x, _ in r["failures"]})
                if out[-1] or time.monotonic() - t0 > budget_s:
                    break
            return out + [False] * (len(cands) - len(out))
        items = {"c%04d.py" % i: c for i, c in enumerate(cands)}
        res = judge.judge_batch(items, list(items) if fix_cat else [])
        return [category in {c for c, _ in res[n]["failures"]} for n in items]

    complete = True
    # first the long repetitions deep nesting and huge literals are made of: halve one run at a
    # time (an opening-bracket run together with its closing run), while the failure stays
    while time.monotonic() - t0 <= budget_s:
        cands = _halved_runs(data)
        if not cands:
            break
        ok = still_fail(cands[:max_batch])
        hit = next((i for i, v in enumerate(ok) if v), None)
        if hit is None:
            break
        data = cands[hit]
    for unit in ("lines", "bytes"):
        units = data.splitlines(keepends=True) if unit == "lines" else [bytes([b]) for b in data]
        if unit == "bytes" and len(units) > 20000:
            complete = False
            break
        n = 2
        while len(units) >= 2:
            if time.monotonic() - t0 > budget_s:
                return b"".join(units), time.monotonic() - t0, False
            parts = _split(units, n)
            cands = [units[:a] + units[b:] for a, b in parts]
            found = None
            for s in range(0, len(cands), max_batch):
                chunk = cands[s:s + max_batch]
                ok = still_fail([b"".join(c) for c in chunk])
                hit = next((i for i, v in enumerate(ok) if v), None)
                if hit is not None:
                    found = chunk[hit]
                    break
                if time.monotonic() - t0 > budget_s:
                    return b"".join(units), time.monotonic() - t0, False
            if found is not None:
                units = found
                n = max(n - 1, 2)
            elif n >= len(units):
                break
            else:
                n = min(2 * n, len(units))
        data = b"".join(units)
    return data, time.monotonic() - t0, complete


# ------------------------------------------------------------------ the run


def signature(f):
    """What a failure has in common with others of the same cause: its category and the gist of
    its detail (the diagnostic's message, the decode error, the deepest repeated stack frame,
    CPython's message), digits elided. Minimisation and the summary go by signature."""
    cat, det = f["category"], str(f["detail"])
    if cat == "cpython-rejects-we-accept":
        gist = re.sub(r" \([^()]*, line \d+\)$", "", f["cpython"].get("error", ""))
    elif "cannot decode" in det:
        gist = "not read, cannot decode: " + det.split("(Python reads")[0].split("(the file's")[0].rsplit(": ", 1)[-1].strip()
    elif cat.endswith("crash"):
        frames = re.findall(r"at ([\w.$<>]+)\(", det)
        exc = re.findall(r"([\w.]+(?:Exception|Error))", det)
        gist = (exc[0] + " " if exc else "") + (("in " + frames[-1]) if frames else det[:100])
    elif cat == "cpython-accepts-we-reject":
        gist = re.sub(r" at \{.*\}$", "", det)
    else:
        gist = det[:100]
    return cat + ": " + re.sub(r"\d+", "N", gist)[:160]


def fuzzer_commit():
    """The commit of tools/fuzz the inputs were made with (a seed's inputs change with mutate.py)."""
    try:
        import subprocess
        c = subprocess.run(["git", "-C", str(HERE), "log", "-1", "--format=%H", "--", "."],
                           capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(HERE), "status", "--porcelain", "--", "."],
                               capture_output=True, text=True).stdout.strip()
        return c + ("+uncommitted" if dirty else "") if c else None
    except OSError:
        return None


def repro_cmd(args, index):
    return "python3 tools/fuzz/fuzz.py --jar %s --seed %s --only %d" % (args.jar, args.seed, index)


def run(args):
    py = find_cpython()
    if not py or not os.path.exists(py):
        return oracle_not_run("no CPython 3.13 under $PYENV_ROOT/versions (GRAPHMEND_FUZZ_PYTHON unset)")
    if not Path(args.jar).is_file():
        print("fuzz: %s: no such jar (build it: mvn -q -o -DskipTests package)" % args.jar, file=sys.stderr)
        return 2
    seeds = mutate.seed_files(py)
    workdir = tempfile.mkdtemp(prefix="gm-fuzz-")
    judge = Judge(args, py, workdir)
    try:
        if args.judge:
            data = Path(args.judge).read_bytes()
            r = judge.judge_batch({"m.py": data}, ["m.py"])["m.py"]
            print(json.dumps(r, indent=1, default=str))
            return 1 if r["failures"] else 0
        if args.only is not None:
            data, rec = mutate.make_input(args.seed, args.only, seeds)
            if args.dump:
                Path(args.dump).write_bytes(data)
            r = judge.judge_batch({"m.py": data}, ["m.py"])["m.py"]
            r["input"] = rec
            print(json.dumps(r, indent=1, default=str))
            return 1 if r["failures"] else 0
        return campaign(args, judge, seeds, py)
    finally:
        judge.close()
        shutil.rmtree(workdir, ignore_errors=True)


def campaign(args, judge, seeds, py):
    t0 = time.monotonic()
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    corpus = Path(args.corpus_out) if args.corpus_out else None
    if corpus:
        corpus.mkdir(parents=True, exist_ok=True)
        records_f = open(corpus / "records.jsonl", "w")
    cpy_counts = collections.Counter()
    matrix = collections.Counter()
    kind_counts = collections.Counter()
    failures = []
    fix_tried = fix_changed = 0
    done = 0
    stopped = None
    sample_rng = random.Random("%s:fix-sample" % args.seed)
    index = args.start
    end = args.start + args.inputs
    while index < end:
        if args.time_limit and time.monotonic() - t0 > args.time_limit:
            stopped = "time limit of %d s reached after %d of %d inputs" % (args.time_limit, done, args.inputs)
            break
        batch = {}
        recs = {}
        fix_names = []
        for i in range(index, min(end, index + args.batch)):
            data, rec = mutate.make_input(args.seed, i, seeds)
            name = "i%07d.py" % i
            batch[name] = data
            recs[name] = rec
            if "plant_torch" in rec["kinds"] or sample_rng.random() < args.fix_sample:
                fix_names.append(name)
            if corpus:
                (corpus / name).write_bytes(data)
        index += len(batch)
        res = judge.judge_batch(batch, fix_names)
        for name, r in sorted(res.items()):
            rec = recs[name]
            done += 1
            for k in set(rec["kinds"]):
                kind_counts[k] += 1
            cv = r["cpython"]["verdict"]
            cpy_counts[cv] += 1
            matrix["%s/%s" % (cv, r.get("ours"))] += 1
            if r.get("fixed"):
                fix_tried += 1
                fix_changed += bool(r.get("fix_changed"))
            if corpus:
                records_f.write(json.dumps(dict(rec, cpython=r["cpython"], ours=r.get("ours"),
                                                failures=[c for c, _ in r["failures"]])) + "\n")
            seen = set()
            for cat, detail in r["failures"]:
                if cat in seen:
                    continue
                seen.add(cat)
                failures.append({"category": cat, "detail": detail, "input": rec, "cpython": r["cpython"],
                                 "ours": r.get("ours"), "repro": repro_cmd(args, rec["index"]),
                                 "_data": batch[name], "_fix": bool(r.get("fixed"))})
                failures[-1]["signature"] = signature(failures[-1])
        if not args.quiet:
            print("fuzz: %d/%d inputs, %d failures, %.0f s" % (done, args.inputs, len(failures), time.monotonic() - t0),
                  file=sys.stderr, flush=True)
    if corpus:
        records_f.close()
    judge_s = time.monotonic() - t0

    # minimise: the first --minimise-per failures of each (category, mutation kinds), in budget
    tm = time.monotonic()
    minimised = collections.Counter()
    min_dir = Path(args.report).with_suffix("") if args.report else None
    for f in failures:
        key = f["signature"]
        if minimised[key] >= args.minimise_per or time.monotonic() - tm > args.minimise_budget:
            continue
        minimised[key] += 1
        left = args.minimise_budget - (time.monotonic() - tm)
        small, secs, complete = minimise(judge, f["_data"], f["category"], f["_fix"], min(args.minimise_time, left))
        f["minimised"] = {"bytes": len(small), "from_bytes": len(f["_data"]), "seconds": round(secs, 1),
                          "complete": complete,
                          "text": small.decode("latin-1") if len(small) <= 600 else None}
        if min_dir:
            min_dir.mkdir(parents=True, exist_ok=True)
            p = min_dir / ("%s-%d.py" % (f["category"], f["input"]["index"]))
            p.write_bytes(small)
            f["minimised"]["file"] = str(p)
            f["minimised"]["repro"] = "python3 tools/fuzz/fuzz.py --jar %s --judge %s" % (args.jar, p)
    min_s = time.monotonic() - tm

    by_cat = collections.Counter(f["category"] for f in failures)
    report = {
        "tool": "tools/fuzz/fuzz.py", "started": started, "seed": args.seed, "start": args.start,
        "inputs_requested": args.inputs, "inputs": done, "stopped": stopped, "jar": args.jar,
        "cpython": py, "java_opts": judge.jar.java_opts, "batch": args.batch, "fuzzer_commit": fuzzer_commit(),
        "seconds": {"total": round(time.monotonic() - t0, 1), "judging": round(judge_s, 1),
                    "minimising": round(min_s, 1), "jvm": round(judge.jar.seconds, 1), "jvm_runs": judge.jar.runs},
        "cpython_verdicts": dict(cpy_counts),
        "cpython_vs_ours": dict(matrix),
        "fix": {"tried": fix_tried, "changed": fix_changed},
        "mutation_kinds": dict(sorted(kind_counts.items())),
        "failures_by_category": dict(by_cat),
        "counts": {
            "crashes": by_cat["crash"] + by_cat["fix-crash"],
            "hangs": by_cat["hang"] + by_cat["fix-hang"],
            "invalid_json": by_cat["invalid-json"],
            "missing": by_cat["missing"],
            "unexpected_stderr": by_cat["unexpected-stderr"],
            "cpython_accepts_we_reject": by_cat["cpython-accepts-we-reject"],
            "cpython_rejects_we_accept": by_cat["cpython-rejects-we-accept"],
            "fix_not_compiling": by_cat["fix-not-compiling"],
            "fix_not_idempotent": by_cat["fix-not-idempotent"],
        },
        "failures": [{k: v for k, v in f.items() if not k.startswith("_")} for f in failures],
    }
    text = summary(report)
    if args.report:
        rp = Path(args.report)
        rp.parent.mkdir(parents=True, exist_ok=True)
        rp.write_text(json.dumps(report, indent=1, default=str) + "\n")
        rp.with_suffix(".txt").write_text(text)
    print(text)
    if stopped:
        print("fuzz: NOT COMPLETE: %s" % stopped, file=sys.stderr)
        return 2
    return 1 if failures else 0


def summary(rep):
    L = []
    L.append("GraphMend fuzz run: seed %s, %d inputs (from index %d)%s, %.0f s (judging %.0f s, minimising %.0f s; "
             "%d JVM runs, %.0f s)" % (rep["seed"], rep["inputs"], rep["start"],
                                       " [STOPPED: %s]" % rep["stopped"] if rep["stopped"] else "",
                                       rep["seconds"]["total"], rep["seconds"]["judging"], rep["seconds"]["minimising"],
                                       rep["seconds"]["jvm_runs"], rep["seconds"]["jvm"]))
    L.append("jar %s; CPython %s; tools/fuzz at %s" % (rep["jar"], rep["cpython"], rep.get("fuzzer_commit")))
    L.append("CPython verdicts: " + ", ".join("%s %d" % kv for kv in sorted(rep["cpython_verdicts"].items())))
    L.append("CPython/ours:     " + ", ".join("%s %d" % kv for kv in sorted(rep["cpython_vs_ours"].items())))
    L.append("fix --unsafe-fixes tried on %d accepted inputs, rewrote %d" % (rep["fix"]["tried"], rep["fix"]["changed"]))
    L.append("")
    c = rep["counts"]
    L.append("crashes %d, hangs %d, invalid JSON %d, missing %d, unexpected stderr %d" % (
        c["crashes"], c["hangs"], c["invalid_json"], c["missing"], c["unexpected_stderr"]))
    L.append("disagreements: CPython accepts/we reject %d, CPython rejects/we accept %d" % (
        c["cpython_accepts_we_reject"], c["cpython_rejects_we_accept"]))
    L.append("fix: not compiling %d, not idempotent %d" % (c["fix_not_compiling"], c["fix_not_idempotent"]))
    L.append("")
    groups = collections.OrderedDict()
    for f in rep["failures"]:
        groups.setdefault(f["signature"], []).append(f)
    L.append("%d distinct failure signatures:" % len(groups) if groups else "")
    for sig, fs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        mins = [f for f in fs if f.get("minimised")]
        f0 = min(mins, key=lambda f: f["minimised"]["bytes"]) if mins else fs[0]
        kinds = collections.Counter(k for f in fs for k in set(f["input"]["kinds"]))
        L.append("")
        L.append("[%d] %s" % (len(fs), sig))
        L.append("    inputs: %s%s" % (", ".join(str(f["input"]["index"]) for f in fs[:12]), " ..." if len(fs) > 12 else ""))
        L.append("    mutation kinds among them: %s" % ", ".join("%s %d" % kv for kv in kinds.most_common(6)))
        L.append("    e.g. input %d (%s; %s): %s" % (f0["input"]["index"], " ".join(f0["input"]["kinds"]),
                                                  "; ".join(f0["input"].get("notes") or []) or "seed " + f0["input"]["seed_file"],
                                                  str(f0["detail"]).replace("\n", " | ")[:240]))
        L.append("    CPython: %s" % (f0["cpython"].get("error") or f0["cpython"]["verdict"])[:200])
        L.append("    repro: %s" % f0["repro"])
        m = f0.get("minimised")
        if m:
            L.append("    minimised: %d -> %d bytes in %.0f s%s%s" % (
                m["from_bytes"], m["bytes"], m["seconds"], "" if m["complete"] else " (budget spent)",
                ("; " + m["repro"]) if m.get("repro") else ""))
            if m.get("text") is not None:
                L.append("    minimal input: %r" % m["text"].encode("latin-1"))
    if not rep["failures"]:
        L.append("no failures")
    return "\n".join(L) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jar", required=True)
    ap.add_argument("--seed", default="0")
    ap.add_argument("--inputs", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0, help="index of the first input (to split a long run)")
    ap.add_argument("--time-limit", type=float, default=0, help="stop generating after SEC seconds (the run then exits 2)")
    ap.add_argument("--corpus-out", help="write every input (iNNNNNNN.py) and records.jsonl here")
    ap.add_argument("--report", help="JSON report (a .txt summary and a folder of minimised inputs beside it)")
    ap.add_argument("--batch", type=int, default=250, help="inputs per JVM")
    ap.add_argument("--fix-sample", type=float, default=0.1, help="share of accepted inputs also fixed (planted ones always)")
    ap.add_argument("--minimise-per", type=int, default=2, help="failures minimised per signature (category and gist)")
    ap.add_argument("--minimise-time", type=float, default=30, help="seconds per failure")
    ap.add_argument("--minimise-budget", type=float, default=120, help="seconds for all minimisation")
    ap.add_argument("--java", default="java")
    ap.add_argument("--java-opts", help="JVM options (default: %s)" % " ".join(gm.DEFAULT_JAVA_OPTS))
    ap.add_argument("--only", type=int, help="judge input INDEX of --seed alone, print the verdicts")
    ap.add_argument("--dump", help="with --only: write the input to this file")
    ap.add_argument("--judge", help="judge this file (check and fix) and print the verdicts")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
