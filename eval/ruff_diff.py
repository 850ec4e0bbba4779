#!/usr/bin/env python3
"""New ruff findings that `graphmend fix` introduced: ruff (default rules, no project
configuration) on every file a fixed copy changed, beside the same file unfixed.

    python3 eval/ruff_diff.py --ruff RUFF --original PKG_DIR --fixed COPY_DIR [--fixed COPY_DIR ...]

A finding counts as new when its code appears more often in the fixed file than in the original
(line numbers move with the edits, so findings are compared per code). Prints one line per
changed file and a total; exits 1 when any fix introduced a finding.
"""

from __future__ import annotations

import argparse
import collections
import filecmp
import json
import os
import subprocess
import sys


def findings(ruff, path):
    r = subprocess.run([ruff, "check", "--isolated", "--no-cache", "--output-format", "json", "--exit-zero", path],
                       capture_output=True, text=True)
    if r.returncode not in (0, 1):
        raise SystemExit("ruff failed on %s: %s" % (path, r.stderr[-500:]))
    return collections.Counter(d["code"] or "syntax-error" for d in json.loads(r.stdout or "[]"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruff", required=True)
    ap.add_argument("--original", required=True, help="the unfixed package folder")
    ap.add_argument("--fixed", action="append", required=True, help="a fixed copy of the package folder")
    ns = ap.parse_args(argv)
    introduced = 0
    checked = 0
    for fixed in ns.fixed:
        for dirpath, _, names in os.walk(fixed):
            for name in sorted(names):
                if not name.endswith(".py"):
                    continue
                f = os.path.join(dirpath, name)
                rel = os.path.relpath(f, fixed)
                o = os.path.join(ns.original, rel)
                if not os.path.isfile(o) or filecmp.cmp(o, f, shallow=False):
                    continue
                checked += 1
                before, after = findings(ns.ruff, o), findings(ns.ruff, f)
                new = {c: after[c] - before[c] for c in after if after[c] > before[c]}
                introduced += sum(new.values())
                print("%s %s: %d finding(s) before, %d after%s" % (
                    os.path.basename(fixed.rstrip("/")), rel, sum(before.values()), sum(after.values()),
                    "; new: " + ", ".join("%s x%d" % kv for kv in sorted(new.items())) if new else ""))
    print("%d changed file(s) checked; %d new finding(s)" % (checked, introduced))
    return 1 if introduced else 0


if __name__ == "__main__":
    sys.exit(main())
