#!/usr/bin/env python3
"""Renders docs/sweep.md from the sweep's committed results (eval/sweep/out/*/).

    python3 eval/sweep/report.py [--out docs/sweep.md]

For every results folder with a ``compare.json`` (``torch-VERSION``, and ``sample-torch-VERSION``
for CI's sample): the sweep's size per library, then per library and compile-root mode recall
(sites flagged with a matching rule), precision on executed lines, recall per graph-break id and
per rule, the misses grouped by graph-break type with their code, and the false positives with
theirs. ``programs-torch-VERSION`` (the programs part, ``programs/run_programs.py``) is rendered by
``render_programs`` between the library parts and the sample. Pure Python, no third-party packages.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
BAR_RECALL, BAR_PRECISION = 0.90, 0.95


def pct(a, b):
    return "%d/%d (%.0f%%)" % (a, b, 100.0 * a / b) if b else "0/0 (n/a)"


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def figures(m):
    sites = m["sites"]
    ex = m["executed_diagnostics"]
    return (sum(s["flagged"] for s in sites), len(sites), sum(d["true"] for d in ex), len(ex))


def summary_rows(compare):
    rows = []
    for lib, r in compare["libs"].items():
        for mode, m in r["modes"].items():
            hit, n, tp, judged = figures(m)
            rows.append((lib, mode, hit, n, tp, judged, m["diagnostics"], len(m["outside_sites"])))
    return rows


def render_folder(name, folder):
    compare = load(os.path.join(folder, "compare.json"))
    out = ["## %s" % name, ""]
    out.append("torch %s. Results: `eval/sweep/out/%s/` (one JSON file per library, `compare.json`)." % (
        compare["torch"], name))
    out.append("")
    out.append("### Size")
    out.append("")
    out.append("| library | version | catalog entries | recorded | built and ran | skipped (cannot build) | timed out or crashed | break sites in the library | sites outside it |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for lib, r in compare["libs"].items():
        data = load(os.path.join(folder, lib + ".json"))
        st = {}
        for e in data["entries"].values():
            st[e.get("status")] = st.get(e.get("status"), 0) + 1
        m = next(iter(r["modes"].values()))
        out.append("| %s | %s | %s | %d | %d | %d | %d | %d | %d |" % (
            lib, r["version"], data.get("catalog_size", "?"), len(data["entries"]), st.get("ran", 0) + st.get("partial", 0),
            st.get("skipped", 0), st.get("timeout", 0) + st.get("crashed", 0), len(m["sites"]), len(m["outside_sites"])))
    out.append("")
    out.append("### Recall and precision")
    out.append("")
    out.append("Bar: recall ≥ %.0f%%, precision on executed lines ≥ %.0f%%." % (100 * BAR_RECALL, 100 * BAR_PRECISION))
    out.append("")
    out.append("| library | mode | recall (rule matches) | recall (any rule) | precision on executed lines | diagnostics in the library |")
    out.append("|---|---|---|---|---|---|")
    tot = {}
    for lib, r in compare["libs"].items():
        for mode, m in r["modes"].items():
            hit, n, tp, judged = figures(m)
            anyr = sum(s["flagged_any_rule"] for s in m["sites"])
            t = tot.setdefault(mode, [0, 0, 0, 0, 0])
            for i, v in enumerate((hit, n, tp, judged, anyr)):
                t[i] += v
            out.append("| %s | %s | %s | %s | %s | %d |" % (lib, mode, pct(hit, n), pct(anyr, n), pct(tp, judged),
                                                            m["diagnostics"]))
    for mode, t in tot.items():
        out.append("| **all** | %s | **%s** | %s | **%s** | |" % (mode, pct(t[0], t[1]), pct(t[4], t[1]), pct(t[2], t[3])))
    out.append("")
    if os.path.isfile(os.path.join(folder, "verdict.json")):
        out.extend(render_verdict(name, load(os.path.join(folder, "verdict.json"))))
    for mode in tot:
        out.extend(render_mode(compare, mode))
    return out


BAR_VERDICT, GOAL_VERDICT = 0.90, 0.97


def render_verdict(name, verdict, limit=12):
    """The per-root full-graph verdict (``verdict.py``): accuracy per library and mode, then the
    disagreements grouped by cause, the causes that cost the most roots first."""
    out = ["### Full-graph verdict per compile root", ""]
    out.append("`eval/sweep/verdict.py` writes one compile root per model and mode, as users write them "
               "(`torch.compile(Cls(Config()).eval())`, and `torch.compile(Cls(Config()))` in training mode), "
               "each called once with the keyword arguments the sweep gave the model (what a call leaves out is None "
               "for the root: [Calls of the compiled object](compile-regions.md#modes)), "
               "runs `graphmend check --summary` over the library with all of them, and compares each root's "
               "verdict (no break counted in its mode: \"one graph\") with Dynamo's outcome for the model in "
               "that mode. Bar %.0f%%, goal %.0f%%; beside it, always answering \"one graph\"."
               % (100 * BAR_VERDICT, 100 * GOAL_VERDICT))
    out.append("")
    out.append("| library | mode | verdict right | always \"one graph\" | roots checked alone | alone differs from together |")
    out.append("|---|---|---|---|---|---|")
    tot = {}
    for lib, r in verdict["libs"].items():
        alone = r.get("alone") or {}
        for mode, m in r["modes"].items():
            t = tot.setdefault(mode, [0, 0, 0])
            t[0] += m["right"]; t[1] += m["judged"]; t[2] += m["always_one_graph"]
            differ = sum(1 for d in alone.get("differ", ()) if d["mode"] == mode)
            out.append("| %s | %s | %s | %s | %s | %s |" % (lib, mode, pct(m["right"], m["judged"]),
                                                           pct(m["always_one_graph"], m["judged"]),
                                                           alone.get("checked", "-"), differ if alone else "-"))
    for mode, t in tot.items():
        out.append("| **all** | %s | **%s** | %s | | |" % (mode, pct(t[0], t[1]), pct(t[2], t[1])))
    out.append("")
    out.append("Disagreements by cause (a root counts under each diagnostic counted for it; the first %d causes "
               "per kind):" % limit)
    out.append("")
    for lib, r in verdict["libs"].items():
        for mode, m in r["modes"].items():
            kinds = [(k, d) for k, d in m["disagreements"].items() if d]
            if not kinds:
                continue
            out.append("- **%s, %s**" % (lib, mode))
            for kind, d in kinds:
                roots = {e for v in d.values() for e in v}
                out.append("  - %s: %d root(s)" % (kind, len(roots)))
                for cause, entries in sorted(d.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:limit]:
                    out.append("    - `%s`: %d (%s)" % (cause, len(entries), ", ".join(
                        e.split(":")[-1] for e in sorted(entries)[:3]) + (", …" if len(entries) > 3 else "")))
    out.append("")
    return out


def library_miss(lib, s):
    """One missed site of the library part: where, its code, the rule that flagged it with a
    wrong id, the first entry that broke there."""
    extra = " — flagged as %s" % ",".join(s["codes"]) if s["codes"] else ""
    return "  - `%s/%s:%d` `%s`%s (%s)" % (lib, s["file"], s["line"], s["source"][:110].replace("`", "'"),
                                          extra, s["entries"][0].split(":", 1)[1]
                                          + (" +%d" % (len(s["entries"]) - 1) if len(s["entries"]) > 1 else ""))


def render_mode(compare, mode, miss=library_miss):
    out = ["### Mode `%s`" % mode, ""]
    by_gb, by_rule = {}, {}
    misses, fps = [], []
    for lib, r in compare["libs"].items():
        m = r["modes"].get(mode)
        if not m:
            continue
        for s in m["sites"]:
            for gb in s["gb"] or ["(no id)"]:
                g = by_gb.setdefault(gb, [0, 0, set()])
                g[1] += 1
                g[0] += s["flagged"]
                g[2].update(s["gb_type"])
            if not s["flagged"]:
                misses.append((lib, s))
        for d in m["executed_diagnostics"]:
            rr = by_rule.setdefault(d["code"], [0, 0])
            rr[1] += 1
            rr[0] += d["true"]
            if not d["true"]:
                fps.append((lib, d))
    out.append("Recall per graph-break id:")
    out.append("")
    out.append("| gb id | Dynamo's type | flagged |")
    out.append("|---|---|---|")
    for gb, (hit, n, types) in sorted(by_gb.items(), key=lambda kv: -kv[1][1]):
        out.append("| %s | %s | %s |" % (gb, "; ".join(sorted(types))[:80], pct(hit, n)))
    out.append("")
    out.append("Precision per rule (diagnostics on executed lines):")
    out.append("")
    out.append("| rule | true |")
    out.append("|---|---|")
    for code, (tp, n) in sorted(by_rule.items()):
        out.append("| %s | %s |" % (code, pct(tp, n)))
    out.append("")
    out.append("Misses (%d), grouped by Dynamo's break type:" % len(misses))
    out.append("")
    groups = {}
    for lib, s in misses:
        key = "; ".join(s["gb_type"]) or s["reason"].split("|")[0][:60]
        groups.setdefault(key, []).append((lib, s))
    for key, items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        out.append("- **%s** (%d)" % (key, len(items)))
        for lib, s in items[:40]:
            out.append(miss(lib, s))
        if len(items) > 40:
            out.append("  - … %d more in compare.json" % (len(items) - 40))
    out.append("")
    def code(d):
        return d["source"][:110].replace("`", "'")

    def listing(title, items, line, limit=40):
        out.append("%s (%d):" % (title, len(items)))
        out.append("")
        for lib, d in items[:limit]:
            out.append(line(lib, d))
        if len(items) > limit:
            out.append("- … %d more in compare.json" % (len(items) - limit))
        out.append("")

    def of_mode(key):
        return [(lib, d) for lib, r in compare["libs"].items() for d in r["modes"].get(mode, {}).get(key, [])]

    listing("False positives on executed lines", fps,
            lambda lib, d: "- `%s/%s:%d` %s `%s`" % (lib, d["file"], d["line"], d["code"], code(d)), limit=80)
    listing("Breaks under a condition the sweep does not run (fp16/bf16, a device), not judged", of_mode("conditional_not_run"),
            lambda lib, d: "- `%s/%s:%d` %s, only when `%s`" % (lib, d["file"], d["line"], d["code"], d["condition"]))
    listing("Diagnostics on lines that ran eagerly but that Dynamo never traced (its frame fell back to eager after "
            "another break), not judged", of_mode("not_traced"),
            lambda lib, d: "- `%s/%s:%d` %s `%s`" % (lib, d["file"], d["line"], d["code"], code(d)))
    listing("Breaks that only follow from another break of the same run, not counted as sites", of_mode("folded_sites"),
            lambda lib, d: "- `%s/%s:%d` %s `%s`: %s" % (lib, d["file"], d["line"], d["gb"], d["source"][:80].replace("`", "'"),
                                                       d["why"]))
    return out


def program_miss(repo, s):
    """One missed site of the programs part: where, Dynamo's id and type, its code, the programs."""
    extra = " — flagged as %s" % ",".join(s["codes"]) if s["codes"] else ""
    return "  - `%s/%s:%d` %s %s: `%s`%s (%s)" % (repo.split("@")[0], s["file"], s["line"], "/".join(s["gb"]) or "(no id)",
                                             "; ".join(s["gb_type"])[:70], s["source"][:110].replace("`", "'"),
                                             extra, ", ".join(s["entries"]))


def render_programs(name, folder):
    """The programs part (``programs/run_programs.py``): per program and mode, then the part's
    totals over repositories (a site two programs of a repository share counts once), then each
    mode's tables and lists as the library part renders them."""
    compare = load(os.path.join(folder, "compare.json"))
    out = ["## %s: programs" % name, ""]
    out.append("torch %s. Real programs that call `torch.compile` themselves (training steps, decode loops, evaluation "
               "loops), each run by a driver at a tiny size on CPU, with Dynamo's `eager` backend; sites, executed and "
               "traced lines on the program's own files; `graphmend check` over the program's repository, judged on "
               "those files (`eval/sweep/README.md`, \"The programs part\"). Catalog: `eval/sweep/programs/catalog.json`; "
               "results: `eval/sweep/out/%s/` (one JSON file per program, `compare.json`); re-run with "
               "`eval/sweep/run.sh --programs`." % (compare["torch"], name))
    out.append("")
    out.append("### Size")
    out.append("")
    progs = compare["programs"]
    out.append("| program | repository @ commit | what it runs | status | own files | own lines | compile calls | "
               "break sites in its files | sites outside them |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for prog, p in progs.items():
        m = next(iter(p.get("modes", {}).values()), None)
        status = p.get("status") or "?"
        if p.get("stopped_at"):
            status += " at `%s`" % sorted(set(p["stopped_at"].values()))[0]
        out.append("| %s | %s @ `%s` | %s | %s | %d | %s | %d | %s | %s |" % (
            prog, p["repo"], (p.get("commit") or "")[:12], p.get("kind", ""), status,
            p.get("own_files", len(p.get("own") or [])), p.get("own_lines", "–") if m else "–",
            len(p.get("compile_calls") or []),
            len(m["sites"]) if m else "–", len(m["outside_sites"]) if m else "–"))
    files = sum(r["files"] for r in compare["repos"].values())
    lines_total = sum(r["lines"] for r in compare["repos"].values())
    judged = sum(1 for p in progs.values() if p.get("modes"))
    out.append("")
    out.append("%d programs in the catalog, %d run and judged, from %d repositories: %d own files, %d lines." % (
        len(progs), judged, len(compare["repos"]), files, lines_total))
    not_run = [(prog, p) for prog, p in progs.items() if not p.get("modes")]
    if not_run:
        out.append("")
        out.append("**Not run** (%d):" % len(not_run))
        out.append("")
        for prog, p in not_run:
            out.append("- %s: %s — %s" % (prog, p.get("status"), p.get("reason") or "; ".join(p.get("errors") or [])[:300]))
    stopped = [(prog, p) for prog, p in progs.items() if p.get("status") == "stopped"]
    if stopped:
        out.append("")
        out.append("Stopped half-way (what ran before the line is judged, the rest is not):")
        out.append("")
        for prog, p in stopped:
            out.append("- %s: %s" % (prog, "; ".join(sorted(set(e.split(": ", 1)[1] for e in p.get("errors") or [])))[:300]))
    out.append("")
    out.append("### Recall and precision")
    out.append("")
    out.append("Bar: recall ≥ %.0f%%, precision on executed lines ≥ %.0f%%. The **all** rows count each repository "
               "once (a site two of its programs share is one site)." % (100 * BAR_RECALL, 100 * BAR_PRECISION))
    out.append("")
    out.append("| program | mode | recall (rule matches) | recall (any rule) | precision on executed lines | diagnostics in its files |")
    out.append("|---|---|---|---|---|---|")
    for prog, p in progs.items():
        for mode, m in sorted(p.get("modes", {}).items()):
            hit, n, tp, judged_n = figures(m)
            anyr = sum(s["flagged_any_rule"] for s in m["sites"])
            out.append("| %s | %s | %s | %s | %s | %d |" % (prog, mode, pct(hit, n), pct(anyr, n), pct(tp, judged_n),
                                                            m["diagnostics"]))
    tot = {}
    for r in compare["repos"].values():
        for mode, m in r["modes"].items():
            hit, n, tp, judged_n = figures(m)
            t = tot.setdefault(mode, [0, 0, 0, 0, 0])
            for i, v in enumerate((hit, n, tp, judged_n, sum(s["flagged_any_rule"] for s in m["sites"]))):
                t[i] += v
    for mode, t in sorted(tot.items()):
        out.append("| **all** | %s | **%s** | %s | **%s** | |" % (mode, pct(t[0], t[1]), pct(t[4], t[1]), pct(t[2], t[3])))
    out.append("")
    as_libs = {"libs": compare["repos"]}
    for mode in sorted(tot):
        out.extend(render_mode(as_libs, mode, miss=program_miss))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "sweep.md"))
    ns = ap.parse_args(argv)
    base = os.path.join(HERE, "out")
    folders = sorted(d for d in os.listdir(base) if os.path.isfile(os.path.join(base, d, "compare.json")))
    lines = ["# The Dynamo sweep: graphmend check judged by real TorchDynamo on real models", "",
             "Generated by `eval/sweep/report.py` from `eval/sweep/out/`; re-run everything with "
             "`eval/sweep/run.sh` (see `eval/sweep/README.md` for what is counted and how).", ""]
    def part(n):  # the library parts, the programs part, CI's sample
        return (2 if n.startswith("sample") else 1 if n.startswith("programs") else 0), n

    for name in sorted(folders, key=part):
        if name.startswith("programs"):
            lines.extend(render_programs(name, os.path.join(base, name)))
        else:
            lines.extend(render_folder(name, os.path.join(base, name)))
    with open(ns.out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(ns.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
