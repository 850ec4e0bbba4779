"""Running the jar and CPython on batches of inputs, and judging what they did (tools/fuzz).

A batch is a folder of files; one JVM checks (or fixes) the whole folder. Whatever goes wrong
for the batch as a whole (the JVM dies, hangs, prints a stack trace, prints invalid JSON) is
found again file by file by bisection, so each failure names one input.
"""

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_JAVA_OPTS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]

# What a healthy run never prints: a Java exception or stack frame, or the CLI's own words for
# an engine failure ("internal error", "... please report this").
CRASH_RE = re.compile(r"(\b[\w$.]*(Exception|Error)\b(?!\)))|(^\s+at [\w$.<>/]+\()|internal error|please report this",
                      re.M)


STATUS_RE = re.compile(r"^\S.*:\d+: GM\d{3} (fixed|not fixed): |^(Fixed|Would fix) \d+ diagnostic")


class CPython:
    """A long-lived reference interpreter answering verdicts (cpython_worker.py)."""

    def __init__(self, python):
        self.python = python
        self.proc = None

    def _start(self):
        self.proc = subprocess.Popen([self.python, str(HERE / "cpython_worker.py")], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)

    def judge(self, path):
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        try:
            self.proc.stdin.write(str(path) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        if not line:  # the interpreter died on this input: its own limit, recorded
            self.proc = None
            return {"verdict": "limit", "error": "CPython process died"}
        return json.loads(line)

    def judge_bytes(self, data, tmpdir):
        p = Path(tmpdir) / "cpython_probe.py"
        p.write_bytes(data)
        return self.judge(p)

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)


class Jar:
    # A batch gets 20 s + 0.1 s per file; bisection then holds each input alone to 20.1 s, which
    # CPython needs milliseconds for: a file that takes longer (a quadratic literal) is a "hang".
    def __init__(self, jar, java="java", java_opts=None, timeout_base=20.0, timeout_per_file=0.1):
        self.jar = str(jar)
        self.java = java
        self.java_opts = DEFAULT_JAVA_OPTS if java_opts is None else java_opts
        self.timeout_base = timeout_base
        self.timeout_per_file = timeout_per_file
        self.runs = 0
        self.seconds = 0.0

    def argv(self, *args):
        return [self.java] + self.java_opts + ["-jar", self.jar] + list(args)

    def run(self, args, nfiles):
        timeout = self.timeout_base + self.timeout_per_file * nfiles
        t0 = time.monotonic()
        self.runs += 1
        proc = subprocess.Popen(self.argv(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        try:
            out, err = proc.communicate(timeout=timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            out, err = proc.communicate()
            timed_out = True
        dt = time.monotonic() - t0
        self.seconds += dt
        return {"rc": proc.returncode, "out": out, "err": err.decode("utf-8", "replace"), "timed_out": timed_out,
                "seconds": dt, "timeout": timeout}


def _tail(s, n=1500):
    return s if len(s) <= n else "..." + s[-n:]


# ------------------------------------------------------------------ check


def _check_once(jar, files, workdir):
    """One JVM over `files` (name -> bytes). Returns (per-file, batch_problem):
    per-file: name -> {"ours": accept|reject, "problems": [(category, detail)], "diags": [...]}
    batch_problem: (category, detail) that names no file, or None."""
    d = Path(tempfile.mkdtemp(prefix="check-", dir=workdir))
    try:
        for name, data in files.items():
            (d / name).write_bytes(data)
        r = jar.run(["check", "--format", "json", "--exit-zero", "--no-config", str(d)], len(files))
    finally:
        shutil.rmtree(d, ignore_errors=True)
    if r["timed_out"]:
        return {}, ("hang", "no answer in %.0f s" % r["timeout"])
    if r["rc"] not in (0, 1, 2):
        return {}, ("crash", "exit status %s; stderr: %s" % (r["rc"], _tail(r["err"])))
    try:
        doc = json.loads(r["out"].decode("utf-8"))
        files_out = doc["files"]
        errors_out = doc["errors"]
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as e:
        if CRASH_RE.search(r["err"]):  # died with a stack trace before (or while) writing its output
            return {}, ("crash", "no JSON on stdout; stderr: %s" % _tail(r["err"]))
        return {}, ("invalid-json", "%s; stdout starts %r; stderr: %s" % (e, r["out"][:200], _tail(r["err"])))
    res = {}
    prefix = str(d) + os.sep
    for f in files_out:
        name = f.get("path", "")[len(prefix):] if f.get("path", "").startswith(prefix) else os.path.basename(f.get("path", ""))
        diags = f.get("diagnostics") or []
        ours = "reject" if any(x.get("code") == "GM000" for x in diags) else "accept"
        res[name] = {"ours": ours, "problems": [], "diags": diags}
    decode_lines = set()
    for e in errors_out:
        name = os.path.basename(e.get("path", ""))
        msg = e.get("message", "")
        entry = res.setdefault(name, {"ours": "reject", "problems": [], "diags": []})
        entry["ours"] = "reject"
        entry["error"] = msg
        if CRASH_RE.search(msg):
            entry["problems"].append(("crash", "errors entry: " + msg))
        decode_lines.add("graphmend: %s: %s" % (e.get("path", ""), msg))
    stray = [l for l in r["err"].splitlines() if l.strip() and l not in decode_lines]
    batch_problem = None
    if stray:
        text = "\n".join(stray)
        named = [n for n in files if (prefix + n) in text]
        cat = "crash" if CRASH_RE.search(text) else "unexpected-stderr"
        if len(named) == 1 and len(files) > 1:
            res.setdefault(named[0], {"ours": "missing", "problems": [], "diags": []})["problems"].append(
                (cat, _tail(text)))
        else:
            batch_problem = (cat, _tail(text))
    for n in files:
        if n not in res:
            res[n] = {"ours": "missing", "problems": [("missing", "not in the JSON's files nor errors")], "diags": []}
    return res, batch_problem


def check_batch(jar, files, workdir):
    """Per-file results for a batch, bisecting whatever the batch as a whole got wrong."""
    res, problem = _check_once(jar, files, workdir)
    if problem is None:
        return res
    if len(files) == 1:
        name = next(iter(files))
        r = res.get(name) or {"ours": "crashed", "problems": [], "diags": []}
        r["problems"].append(problem)
        return {name: r}
    names = sorted(files)
    half = len(names) // 2
    out = {}
    for part in (names[:half], names[half:]):
        out.update(check_batch(jar, {n: files[n] for n in part}, workdir))
    return out


# ------------------------------------------------------------------ fix


def _fix_run(jar, d, nfiles):
    r = jar.run(["fix", "--unsafe-fixes", "--no-config", str(d)], nfiles)
    if r["timed_out"]:
        return ("hang", "fix: no answer in %.0f s" % r["timeout"])
    if r["rc"] not in (0, 1, 2):
        return ("crash", "fix: exit status %s; stderr: %s" % (r["rc"], _tail(r["err"])))
    text = r["err"] + "\n" + r["out"].decode("utf-8", "replace")
    # status lines ("P:12: GM103 fixed: ...", "Fixed 3 diagnostics ...") may quote code: not judged
    text = "\n".join(l for l in text.splitlines() if not STATUS_RE.match(l))
    if CRASH_RE.search(text):
        lines = [l for l in text.splitlines() if CRASH_RE.search(l)]
        return ("crash", "fix: " + _tail("\n".join(lines[:20])))
    return None


def _fix_once(jar, cpython, files, workdir):
    d = Path(tempfile.mkdtemp(prefix="fix-", dir=workdir))
    try:
        for name, data in files.items():
            (d / name).write_bytes(data)
        problem = _fix_run(jar, d, len(files))
        if problem:
            return {}, ("fix-" + problem[0], problem[1])
        res = {n: {"problems": [], "changed": False} for n in files}
        first = {}
        for n in files:
            now = (d / n).read_bytes()
            first[n] = now
            if now != files[n]:
                res[n]["changed"] = True
                v = cpython.judge(d / n)
                if v["verdict"] != "accept":
                    res[n]["problems"].append(("fix-not-compiling", "after fix CPython says %s" % v.get("error", v["verdict"])))
                    res[n]["fixed"] = now
        problem = _fix_run(jar, d, len(files))
        if problem:
            return {}, ("fix-" + problem[0], "second run: " + problem[1])
        for n in files:
            if (d / n).read_bytes() != first[n]:
                res[n]["problems"].append(("fix-not-idempotent", "a second fix --unsafe-fixes changed the file again"))
        return res, None
    finally:
        shutil.rmtree(d, ignore_errors=True)


def fix_batch(jar, cpython, files, workdir):
    res, problem = _fix_once(jar, cpython, files, workdir)
    if problem is None:
        return res
    if len(files) == 1:
        return {next(iter(files)): {"problems": [problem], "changed": False}}
    names = sorted(files)
    half = len(names) // 2
    out = {}
    for part in (names[:half], names[half:]):
        out.update(fix_batch(jar, cpython, {n: files[n] for n in part}, workdir))
    return out
