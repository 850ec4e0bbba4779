#!/usr/bin/env python3
"""The fix fixtures under older torch releases: each before-file of
``passes/src/test/resources/fixes`` fixed for the release a project runs, judged by the fix oracle
under that release.

    python3 tools/fix_oracle_releases.py 2.10.0 [2.8.0 ...]

For each release, the torch environment (``scripts/torch-env`` with ``GRAPHMEND_TORCH_SPEC`` and
``GRAPHMEND_TORCH_ENV=~/.cache/graphmend/torch-env-VERSION``, made once) runs
``tools/fix_oracle.py --pair BEFORE FIXED`` on copies fixed by ``graphmend fix --torch-version
MAJOR.MINOR`` (with ``--unsafe-fixes`` where the file's ``# config:`` line turns them on; its
``torch-version`` is replaced by the release's, as a project on that torch would have it). The
committed ``.fixed.py`` files are torch 2.15's; a fix that needs a newer torch than the release is
declined there, and the oracle checks the rest: breaks removed, outputs, effects, exceptions.

Prints the oracle's summary per release and writes ``eval/out/fix-oracle-releases.json``. A case
the oracle fails is set apart, not hidden, when the release explains it: the case's fix is declined
for that release (the case and the module-level definitions it names read the same after the fix,
and the break the fixture's marker expects gone is there as before), that release's Dynamo does
not break on the original (the case tests nothing there), or the case is unchanged and only its
compiled run's effects differ from eager (the release's Dynamo on the original: torch 2.8 names a
record made after a break after its resume function). Exits 1 when any other case fails.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXES = os.path.join(ROOT, "passes", "src", "test", "resources", "fixes")


def torch_python(version):
    env = dict(os.environ, GRAPHMEND_TORCH_SPEC="torch==" + version,
               GRAPHMEND_TORCH_ENV=os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")),
                                                "graphmend", "torch-env-" + version))
    r = subprocess.run([os.path.join(ROOT, "scripts", "torch-env")], env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("torch %s: no environment (%s)" % (version, r.stderr.strip()[-500:]))
    return r.stdout.strip().splitlines()[-1]


def unsafe(path):
    with open(path, encoding="utf-8") as f:
        first = f.readline()
    return bool(re.match(r"#\s*config:.*unsafe-fixes\s*=\s*true", first))


def untouched(original, fixed, case):
    """Whether the fix left a case alone: its definition, and the module-level definitions it names,
    read the same in both files (CPython's ast; lines may have moved)."""
    import ast

    def definitions(text):
        tree = ast.parse(text)
        return {n.name: ast.get_source_segment(text, n) for n in tree.body
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}, tree

    try:
        before, tree = definitions(original)
        after, _ = definitions(fixed)
    except SyntaxError:
        return False
    if case not in before:
        return False
    names = {case}
    for node in ast.walk(next(n for n in tree.body if getattr(n, "name", None) == case)):
        if isinstance(node, ast.Name) and node.id in before:
            names.add(node.id)
    return all(before[n] == after.get(n) for n in names)


def main(argv=None):
    versions = (argv if argv is not None else sys.argv[1:]) or ["2.10.0"]
    subprocess.run([os.path.join(ROOT, "graphmend"), "--version"], capture_output=True)  # builds a stale jar
    jar = os.path.join(tempfile.mkdtemp(prefix="gm-fix-releases-"), "graphmend.jar")
    shutil.copyfile(os.path.join(ROOT, "server", "target", "graphmend.jar"), jar)
    befores = sorted(f for f in os.listdir(FIXES) if f.endswith(".py") and not f.endswith(".fixed.py"))
    out = {"releases": {}}
    status = 0
    for version in versions:
        py = torch_python(version)
        minor = ".".join(version.split(".")[:2])
        scratch = tempfile.mkdtemp(prefix="gm-fix-releases-%s-" % minor)
        pairs = []
        for name in befores:
            fixed = os.path.join(scratch, name)
            shutil.copyfile(os.path.join(FIXES, name), fixed)
            cmd = ["java", "-jar", jar, "fix", "-q", "--exit-zero", "--no-config", "--torch-version", minor, fixed]
            if unsafe(fixed):
                cmd.insert(-1, "--unsafe-fixes")
            subprocess.run(cmd, capture_output=True, text=True, check=True)
            pairs += ["--pair", os.path.join(FIXES, name), fixed]
        r = subprocess.run([py, os.path.join(ROOT, "tools", "fix_oracle.py"), "--json", *pairs],
                           capture_output=True, text=True, cwd=FIXES)
        try:
            report = json.loads(r.stdout)
        except ValueError:
            raise SystemExit("fix oracle under torch %s gave no report:\n%s" % (version, r.stderr[-2000:]))
        bad, release_declines, not_useful, own_effects = [], [], [], []
        for f in report["files"]:
            name = os.path.basename(f["original"])
            with open(f["original"], encoding="utf-8") as a, open(f["fixed"], encoding="utf-8") as b:
                original_text, fixed_text = a.read(), b.read()
            if f.get("error"):
                bad.append("%s: file error: %s" % (name, f["error"]))
            for c in f.get("cases") or []:
                if c.get("status") not in ("FAIL", "error"):
                    continue
                failures = c.get("failures") or []
                line = "%s %s: %s" % (name, c["name"], "; ".join(failures) or c.get("error"))
                if failures and all("break(s) left" in m for m in failures) and untouched(
                        original_text, fixed_text, c["name"]):
                    # the fixture expects 2.15's fix; the release's torch-version declines it (the
                    # case and what it calls are unchanged), and the break is there as before
                    release_declines.append(line)
                elif failures and all("break(s) left" in m or "side effects differ (original eager vs fixed compiled)" in m
                                      for m in failures) and untouched(original_text, fixed_text, c["name"]):
                    # the case is the original, unchanged: what its compiled run does differently from
                    # eager is this release's Dynamo on the original (torch 2.8 names a record made
                    # after a break after its resume function), not a fix's doing
                    own_effects.append(line)
                elif any("the original does not break" in m for m in failures):
                    # this Dynamo does not break where 2.15 does: the case tests nothing here
                    not_useful.append(line)
                else:
                    bad.append(line)
        out["releases"][version] = {"torch": report.get("torch"), "summary": report.get("summary"), "failures": bad,
                                    "declined_for_this_release": release_declines, "original_does_not_break": not_useful,
                                    "unchanged_original_differs_compiled": own_effects}
        print("torch %s: %s" % (report.get("torch"), json.dumps(report.get("summary"))))
        for title, lines in (("FAILED", bad), ("declined for this release (the case unchanged)", release_declines),
                             ("the original does not break under this release", not_useful),
                             ("unchanged, and the original's compiled run differs from eager under this release", own_effects)):
            if lines:
                print("  %s (%d):" % (title, len(lines)))
                for x in lines:
                    print("    " + x)
        if bad:
            status = 1
        shutil.rmtree(scratch, ignore_errors=True)
    path = os.path.join(ROOT, "eval", "out", "fix-oracle-releases.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
