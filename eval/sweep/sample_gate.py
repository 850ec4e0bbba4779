#!/usr/bin/env python3
"""CI's check on the sweep's fixed sample: fails when recall or precision falls below the gate.

    python3 eval/sweep/sample_gate.py [RESULTS_DIR]     (default: the newest out/sample-torch-*/)

Reads ``compare.json`` of the sample run (``eval/sweep/run.sh --sample``) and the gate in
``sample-gate.json`` beside this file: the minimum recall (sites flagged with a matching rule)
and precision on executed lines, per compile-root mode, over all libraries of the sample. It also
fails when the sample did not run: no results, an entry of the sample missing, or fewer entries
built and run than the gate's ``min_ran``. Prints one line per mode and a PASS/FAIL line.

The gate starts at the figures the sample measured when it was set and moves only up; the
project's bar (recall 90%, precision 95%) is reported beside it so the distance stays visible.
"""

from __future__ import annotations

import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sweep  # noqa: E402  SAMPLE

BAR = {"recall": 0.90, "precision": 0.95}


def main(argv):
    folder = argv[1] if len(argv) > 1 else (sorted(glob.glob(os.path.join(HERE, "out", "sample-torch-*"))) or [None])[-1]
    with open(os.path.join(HERE, "sample-gate.json"), encoding="utf-8") as f:
        gate = json.load(f)
    path = folder and os.path.join(folder, "compare.json")
    if not path or not os.path.isfile(path):
        print("sweep sample: NOT RUN (no compare.json under eval/sweep/out/sample-torch-*): FAIL")
        return 1
    with open(path, encoding="utf-8") as f:
        compare = json.load(f)
    ok = True
    recorded, ran = set(), 0
    for lib in sweep.LIBS:
        p = os.path.join(folder, lib + ".json")
        if os.path.isfile(p):
            with open(p, encoding="utf-8") as f:
                entries = json.load(f)["entries"]
            recorded |= set(entries)
            ran += sum(1 for e in entries.values() if e.get("status") in ("ran", "partial"))
    missing = [e for e in sweep.SAMPLE if e not in recorded]
    if missing:
        print("sweep sample: %d entr%s of the sample not recorded: %s" % (
            len(missing), "y" if len(missing) == 1 else "ies", ", ".join(missing)))
        ok = False
    if ran < gate["min_ran"]:
        print("sweep sample: only %d of %d entries built and ran (gate: %d)" % (ran, len(sweep.SAMPLE), gate["min_ran"]))
        ok = False
    for mode, need in gate["modes"].items():
        sites = [s for r in compare["libs"].values() for s in r["modes"].get(mode, {}).get("sites", [])]
        judged = [d for r in compare["libs"].values() for d in r["modes"].get(mode, {}).get("executed_diagnostics", [])]
        if not sites and not judged:
            print("sweep sample %s: NOT RUN (mode missing from compare.json)" % mode)
            ok = False
            continue
        recall = sum(s["flagged"] for s in sites) / len(sites) if sites else 1.0
        precision = sum(d["true"] for d in judged) / len(judged) if judged else 1.0
        good = recall >= need["recall"] - 1e-9 and precision >= need["precision"] - 1e-9
        ok &= good
        print("sweep sample %s: recall %.3f (%d sites; gate %.3f, bar %.2f), precision on executed lines %.3f "
              "(%d diagnostics; gate %.3f, bar %.2f): %s" % (
                  mode, recall, len(sites), need["recall"], BAR["recall"], precision, len(judged), need["precision"],
                  BAR["precision"], "ok" if good else "BELOW THE GATE"))
    print("sweep sample: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
