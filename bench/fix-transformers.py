#!/usr/bin/env python3
"""Fix-all over a copy of the transformers package (issue 5, item 3).

Copies an installed transformers package into a scratch folder, runs `graphmend fix` on its
modeling files (safe fixes; with --unsafe also unsafe ones), then checks every edited file:
it must compile under CPython and its module must import (with the copy first on sys.path, in a
python that has transformers' dependencies, e.g. the evaluation environment). Prints counts per
applied fix and per decline reason.

Usage: bench/fix-transformers.py --python ENV_PYTHON [--unsafe] [--jar server/target/graphmend.jar]
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", required=True, help="a python with transformers and its dependencies installed")
    ap.add_argument("--unsafe", action="store_true", help="also apply unsafe fixes")
    ap.add_argument("--jar", default=os.path.join(os.path.dirname(__file__), "..", "server", "target", "graphmend.jar"))
    ap.add_argument("--keep", help="folder to keep the fixed copy in (default: a temporary folder, removed)")
    args = ap.parse_args()

    src = subprocess.check_output([args.python, "-c", "import transformers, os; print(os.path.dirname(transformers.__file__))"],
                                  text=True).strip()
    version = subprocess.check_output([args.python, "-c", "import transformers; print(transformers.__version__)"], text=True).strip()
    scratch = args.keep or tempfile.mkdtemp(prefix="gm-fix-tf-")
    dest = os.path.join(scratch, "transformers")
    if os.path.exists(dest):
        shutil.rmtree(dest)
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("__pycache__"))
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(dest) for f in fs if f.startswith("modeling_") and f.endswith(".py"))
    before = {f: open(f, "rb").read() for f in files}

    cmd = ["java", "-jar", args.jar, "fix", "--no-config"] + (["--unsafe-fixes"] if args.unsafe else []) + files
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode == 2:
        print(run.stderr[-3000:], file=sys.stderr)
    applied, declined = collections.Counter(), collections.Counter()
    for line in run.stdout.splitlines():
        m = re.match(r".*:\d+: (GM\d+) fixed: (.*)$", line)
        if m:
            applied[m.group(1) + " " + re.sub(r" (logger\.\w+|print|warnings\.warn)\b", " <callee>", m.group(2))] += 1
            continue
        m = re.match(r".*:\d+: (GM\d+) not fixed: (.*)$", line)
        if m:
            reason = re.sub(r"\([^)]*\)", "(…)", m.group(2))
            reason = re.sub(r"line \d+", "line N", reason)
            declined[m.group(1) + " " + reason[:150]] += 1

    edited = [f for f in files if open(f, "rb").read() != before[f]]
    compile_failures, import_failures = [], []
    for f in edited:
        c = subprocess.run([args.python, "-c", "import sys, ast; ast.parse(open(sys.argv[1], 'rb').read())", f],
                           capture_output=True, text=True)
        if c.returncode != 0:
            compile_failures.append((f, c.stderr.strip().splitlines()[-1:]))
    mods = [os.path.relpath(f, scratch)[:-3].replace(os.sep, ".") for f in edited]
    checker = ("import importlib, sys, json\nsys.path.insert(0, sys.argv[1])\nbad = []\n"
               "for m in sys.argv[2:]:\n"
               "    try:\n        mod = importlib.import_module(m)\n"
               "        assert mod.__file__.startswith(sys.argv[1]), mod.__file__\n"
               "    except Exception as e:\n        bad.append([m, type(e).__name__ + ': ' + str(e)[:200]])\n"
               "print(json.dumps(bad))\n")
    imp = subprocess.run([args.python, "-c", checker, scratch] + mods, capture_output=True, text=True)
    try:
        import_failures = json.loads(imp.stdout.strip().splitlines()[-1])
    except Exception:
        import_failures = [["<import check>", imp.stderr[-2000:]]]

    print(f"transformers {version}: {len(files)} modeling files, graphmend fix{' --unsafe-fixes' if args.unsafe else ''} "
          f"exit {run.returncode}, edited {len(edited)} files")
    print(f"applied fixes: {sum(applied.values())}")
    for k, v in applied.most_common():
        print(f"  {v:5d}  {k}")
    print(f"not fixed: {sum(declined.values())}")
    for k, v in declined.most_common(25):
        print(f"  {v:5d}  {k}")
    print(f"edited files that do not parse under CPython: {len(compile_failures)}")
    for f, e in compile_failures[:20]:
        print("  ", f, e)
    print(f"edited modules that fail to import: {len(import_failures)} of {len(mods)}")
    for m, e in import_failures[:20]:
        print("  ", m, e)
    if not args.keep:
        shutil.rmtree(scratch, ignore_errors=True)
    return 1 if compile_failures or import_failures or run.returncode == 2 else 0


if __name__ == "__main__":
    sys.exit(main())
