#!/usr/bin/env python3
"""Checks the sweep's installed libraries with ``graphmend check`` and judges it by the sweep.

    python3 eval/sweep/compare.py --python SWEEP_ENV_PYTHON [--sample] [--results DIR]

For each library of the results folder (``out/torch-VERSION/LIB.json``, written by ``sweep.py``)
``graphmend check --format json --no-config --torch-version VERSION`` runs over the library's whole
installed package (its root folder is the workspace, as an editor opened on the repository sees
it), in both compile-root modes:

- ``module-forward``: every ``nn.Module.forward`` is a compile root (the default);
- ``explicit``: no forward is a root by itself; a generated file beside the package
  (``gm_sweep_roots.py``, written to a scratch folder and checked with the package) calls
  ``torch.compile(Class(...))`` on every class the sweep ran, the way users compile a model, so
  the call graph has to reach the code that breaks.

Judging (written to ``out/.../compare.json``, rendered by ``report.py`` into ``docs/sweep.md``):

- A **site** is a (file, line) of the library where Dynamo broke in some entry and mode (see
  ``model_worker.py``); sites whose stack never enters the library are counted apart. Dynamo
  names the line of the bytecode that broke, which for a statement over several lines can be any
  of them, and for an ``if`` is the header; so a site's *span* is the statement around its line
  (only the header of a compound statement), found with CPython's ``ast``.
- A site is **flagged** when a diagnostic's range meets its span and the diagnostic's Dynamo ids
  include the site's id (recall); ``flagged_any_rule`` drops the id condition.
- A diagnostic is on an **executed** line when any line of its range ran in the eager runs of
  the sweep; it is a **true positive** when its range meets a site's span, else a **false
  positive** (precision on executed lines). Diagnostics on lines that never ran are not judged.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

MODES = ("module-forward", "explicit")


def parse_ranges(text):
    out = set()
    for part in filter(None, text.split(",")):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


class Spans:
    """Statement spans of a file: the statement around a line (only a compound one's header)."""

    def __init__(self, path):
        self.spans = []
        try:
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read())
        except (OSError, SyntaxError, ValueError):
            return
        for node in ast.walk(tree):
            if not isinstance(node, ast.stmt):
                continue
            start, end = node.lineno, node.end_lineno or node.lineno
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                end = max(start, body[0].lineno - 1)  # the header only
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.decorator_list:
                    start = min(d.lineno for d in node.decorator_list)
            self.spans.append((start, end))

    def around(self, line):
        best = (line, line)
        for s, e in self.spans:
            if s <= line <= e and (best == (line, line) or e - s < best[1] - best[0]):
                best = (s, e)
        return best


def library_results(results, libs):
    """(lib, the sweep's results of that library) for each of ``libs`` with a results file in ``results``."""
    for lib in libs:
        path = os.path.join(results, lib + ".json")
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                yield lib, json.load(f)


def env_info(py, libs):
    code = ("import json, importlib, os, torch\n"
            "d = {'torch': torch.__version__.split('+')[0]}\n"
            "for l in %r:\n"
            "    m = importlib.import_module(l)\n"
            "    d[l] = {'dir': os.path.dirname(os.path.realpath(m.__file__)), 'version': m.__version__}\n"
            "print(json.dumps(d))" % (list(libs),))
    r = subprocess.run([py, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])


def class_imports(py, entries):
    """{entry: (module, class name)} of each entry's model class, asked in the sweep environment."""
    code = r'''
import json, sys
sys.path.insert(0, %r)
import catalog
out = {}
for e in json.load(sys.stdin):
    lib, a, b = e.split(":", 2)
    try:
        import torch
        cls, methods = catalog.model_class(torch, e)
        # a class the catalog wrote around a library's pieces is no root inside the library
        out[e] = [cls.__module__, cls.__name__, methods] if cls.__module__.split(".")[0] == lib else None
    except Exception as ex:
        out[e] = None
print(json.dumps(out))
''' % HERE
    r = subprocess.run([py, "-c", code], input=json.dumps(entries), capture_output=True, text=True, timeout=3600)
    if r.returncode != 0:
        raise SystemExit("cannot resolve the model classes:\n" + r.stderr[-3000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


def roots_file(folder, lib, entries, classes):
    """A user's file that compiles every class the sweep ran: ``torch.compile(Cls(config))``, or
    ``torch.compile(Cls(config).method)`` for an entry that compiles methods of its class."""
    lines = ['"""Compile roots for graphmend check in explicit mode (generated by eval/sweep/compare.py)."""',
             "import torch", ""]
    chosen = []
    for e in entries:
        c = classes.get(e)
        if c and (c[0], c[1], tuple(c[2] or ())) not in chosen:
            chosen.append((c[0], c[1], tuple(c[2] or ())))
    for i, (module, name, _) in enumerate(chosen, 1):
        lines.append("from %s import %s as %s_%d" % (module, name, name, i))
    lines.append("")
    lines.append("")
    lines.append("def compile_all(config):")
    lines.append('    """One compiled model per class the sweep built."""')
    lines.append("    compiled = []")
    for i, (module, name, methods) in enumerate(chosen, 1):
        if not methods:
            lines.append("    compiled.append(torch.compile(%s_%d(config)))" % (name, i))
        for m in methods:  # an entry that compiles methods of the class: torch.compile(obj.method)
            lines.append("    compiled.append(torch.compile(%s_%d(config).%s))" % (name, i, m))
    lines.append("    return compiled")
    path = os.path.join(folder, "gm_sweep_roots_%s.py" % lib)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return path


def graphmend_command():
    """``./graphmend``, or ``java -jar JAR`` with ``GRAPHMEND_JAR`` set (a build kept apart from the checkout)."""
    jar = os.environ.get("GRAPHMEND_JAR")
    return ["java", "-jar", jar] if jar else [os.path.join(ROOT, "graphmend")]


def run_check(pkg_dir, extra, mode, torch_version):
    cmd = graphmend_command() + ["check", "--format", "json", "--no-config",
           "--torch-version", ".".join(torch_version.split(".")[:2]), "--assume-compiled", mode, pkg_dir] + extra
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    if r.returncode not in (0, 1):
        raise SystemExit("graphmend check failed (%d):\n%s" % (r.returncode, r.stderr[-3000:]))
    return json.loads(r.stdout)


COMPREHENSIONS = ("<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>")


def consequence_of(s, others, span_of):
    """Why a site only follows from another break of the same run (and so is not a site of its
    own), or None:
    - Dynamo broke inside a call's arguments, and resuming left the bound builtin method on the
      stack (``x.masked_scatter(m, y[mask])``): GB0007 "likely a C extension or builtin" on the same
      statement as the other break;
    - a comprehension compiled as a frame of its own (its user stack is that frame alone): Python
      3.11 runs comprehensions as nested frames, and Dynamo compiles one apart only when the
      function around it fell back to eager after another break."""
    if not others:
        return None
    if s.get("gb") == "GB0007" and ("C extension or builtin" in s.get("reason", "")
                                     or "<unknown module>" in s.get("reason", "")):
        here = span_of(s["file"], s["line"])
        for o in others:
            if o["file"] == s["file"] and span_of(o["file"], o["line"]) == here:
                return "the builtin method left on the stack by the break at line %d of the same statement" % o["line"]
    if s.get("function") in COMPREHENSIONS and len(s.get("stack") or []) == 1:
        return "a comprehension Dynamo compiled on its own after its caller fell back to eager (%s)" % ", ".join(
            sorted({"%s:%d" % (o["file"], o["line"]) for o in others})[:3])
    return None


def collect_sites(data, span_of):
    """{(file, line): site} over every entry and mode, with the entries and modes that broke
    there; sites that only follow from another break (consequence_of) go into a list of their own."""
    sites, outside, folded = {}, [], {}
    for entry, res in sorted(data["entries"].items()):
        for mode, m in res.get("modes", {}).items():
            own = [s for s in m.get("sites", []) if s.get("in_package")]
            for s in m.get("sites", []):
                if not s.get("in_package"):
                    outside.append({"entry": entry, "mode": mode, "where": s["file"], "line": s["line"],
                                    "gb": s["gb"], "reason": s["reason"][:200]})
                    continue
                why = consequence_of(s, [o for o in own if o is not s and consequence_of(o, [], span_of) is None
                                         and (o["file"], o["line"]) != (s["file"], s["line"])], span_of)
                if why:
                    f = folded.setdefault((s["file"], s["line"]), {"file": s["file"], "line": s["line"], "gb": s["gb"],
                                                                   "source": s.get("source", ""), "why": why,
                                                                   "entries": set()})
                    f["entries"].add(entry)
                    continue
                key = (s["file"], s["line"])
                site = sites.setdefault(key, {"file": s["file"], "line": s["line"], "gb": set(), "gb_type": set(),
                                              "reason": s["reason"], "source": s.get("source", ""),
                                              "entries": set(), "modes": set()})
                gb = s.get("gb") or gb_of_reason(s["reason"])
                if gb:
                    site["gb"].add(gb)
                if s.get("gb_type"):
                    site["gb_type"].add(s["gb_type"])
                site["entries"].add(entry)
                site["modes"].add(mode)
    # a site folded in one run but its own break in another is a site
    folded = {k: v for k, v in folded.items() if k not in sites}
    return sites, outside, folded


_GB_BY_TYPE = None


def gb_of_reason(reason):
    """The graph-break id of a break an older torch logged without one (torch 2.8 has no ids): its
    reason starts with Dynamo's break type, which docs/reference/dynamo-graph-break-ids.tsv maps."""
    global _GB_BY_TYPE
    if _GB_BY_TYPE is None:
        _GB_BY_TYPE = {}
        with open(os.path.join(ROOT, "docs", "reference", "dynamo-graph-break-ids.tsv"), encoding="utf-8") as f:
            for row in f.read().splitlines()[1:]:
                parts = row.split("\t")
                if len(parts) >= 2:
                    _GB_BY_TYPE.setdefault(parts[1], parts[0])
    return _GB_BY_TYPE.get((reason or "").split(" | ")[0].strip())


def judge(lib, pkg_dir, data, result):
    span_cache = {}

    def span_of(rel, line):
        if rel not in span_cache:
            span_cache[rel] = Spans(os.path.join(pkg_dir, rel))
        return span_cache[rel].around(line)

    sites, outside, folded = collect_sites(data, span_of)
    executed, traced, untraced_record = {}, {}, {}
    for res in data["entries"].values():
        for f, text in (res.get("executed") or {}).items():
            lines = parse_ranges(text)
            executed.setdefault(f, set()).update(lines)
            if "traced" not in res:
                # recorded before the sweep kept Dynamo's traced lines: judged on executed lines alone
                untraced_record.setdefault(f, set()).update(lines)
        for f, text in (res.get("traced") or {}).items():
            traced.setdefault(f, set()).update(parse_ranges(text))
    diags = {}
    prefix = os.path.realpath(pkg_dir) + os.sep
    for f in result["files"]:
        real = os.path.realpath(f["path"])
        if not real.startswith(prefix):
            continue
        rel = os.path.relpath(real, prefix)
        for d in f["diagnostics"]:
            diags.setdefault(rel, []).append(d)

    def meets(d, s):
        a, b = d["range"]["start"]["line"] + 1, d["range"]["end"]["line"] + 1
        return a <= s[1] and s[0] <= b

    out_sites = []
    for (rel, line), s in sorted(sites.items()):
        sp = span_of(rel, line)
        hits = [d for d in diags.get(rel, []) if meets(d, sp)]
        strict = [d for d in hits if set(d.get("dynamo") or []) & s["gb"]]
        out_sites.append({"file": rel, "line": line, "span": list(sp), "gb": sorted(s["gb"]),
                          "gb_type": sorted(s["gb_type"]), "reason": s["reason"][:300], "source": s["source"],
                          "entries": sorted(s["entries"]), "modes": sorted(s["modes"]),
                          "flagged": bool(strict), "flagged_any_rule": bool(hits),
                          "codes": sorted({d["code"] for d in hits})})
    site_spans = {}
    for s in out_sites:
        site_spans.setdefault(s["file"], []).append(tuple(s["span"]))
    judged, unjudged, not_traced = [], [], []
    for rel, ds in sorted(diags.items()):
        ran = executed.get(rel, set())
        seen = traced.get(rel, set()) | untraced_record.get(rel, set())
        for d in ds:
            a, b = d["range"]["start"]["line"] + 1, d["range"]["end"]["line"] + 1
            if not any(n in ran for n in range(a, b + 1)):
                continue
            tp = any(meets(d, sp) for sp in site_spans.get(rel, []))
            if not tp and not any(n in seen for n in range(a, b + 1)):
                # ran eagerly only: Dynamo never traced it (its frame fell back to eager after
                # another break, or a break in a loop skipped the frame), so nothing judges it
                not_traced.append({"file": rel, "line": a, "code": d["code"],
                                   "source": _line(os.path.join(pkg_dir, rel), a)})
                continue
            path_line = tensor_path_line(d["message"])
            if not tp and path_line is not None and not path_traced(data, rel, path_line, a, b, ran):
                # the assignment that makes the tested name a tensor never ran (or Dynamo never
                # traced it in a run that traced this line): nothing judges the tensor path
                unjudged.append({"file": rel, "line": a, "code": d["code"],
                                 "condition": "line %d ran" % path_line,
                                 "source": _line(os.path.join(pkg_dir, rel), a)})
                continue
            condition = only_when(d["message"])
            if not tp and condition is not None and not condition_ran(condition):
                # a break under a condition the sweep never ran (fp16, say): nothing judges it
                unjudged.append({"file": rel, "line": a, "code": d["code"], "condition": condition,
                                 "source": _line(os.path.join(pkg_dir, rel), a)})
                continue
            judged.append({"file": rel, "line": a, "code": d["code"], "dynamo": d.get("dynamo") or [],
                           "message": d["message"][:300], "true": tp,
                           "source": _line(os.path.join(pkg_dir, rel), a)})
    return {
        "sites": out_sites,
        "outside_sites": outside,
        "folded_sites": [dict(v, entries=sorted(v["entries"])) for _, v in sorted(folded.items())],
        "diagnostics": sum(len(v) for v in diags.values()),
        "executed_diagnostics": judged,
        "conditional_not_run": unjudged,
        "not_traced": not_traced,
    }


def path_traced(data, rel, path_line, a, b, ran):
    """Whether one run (an entry in one mode) had Dynamo trace both the assignment that makes a
    name a tensor and the diagnostic's lines. Runs recorded without per-mode traced lines fall
    back to: the assignment ran in some run."""
    per_mode = False
    for res in data["entries"].values():
        for m in (res.get("modes") or {}).values():
            if "traced" not in m:
                continue
            per_mode = True
            lines = parse_ranges(m["traced"].get(rel, ""))
            if path_line in lines and any(n in lines for n in range(a, b + 1)):
                return True
    legacy = any(any("traced" not in m for m in (res.get("modes") or {}).values())
                 and path_line in parse_ranges((res.get("executed") or {}).get(rel, ""))
                 for res in data["entries"].values())
    return legacy or (not per_mode and path_line in ran)


def tensor_path_line(message):
    """The line a GM101 message says makes the tested name a tensor (an assignment, or a helper's
    return in the same file), or None."""
    m = re.search(r"holds a tensor only (?:after the assignment|when its helper returns) on line (\d+)", message)
    return int(m.group(1)) if m else None


def only_when(message):
    """The static condition of a GM101 'It breaks only when `X` is true' message, or None."""
    marker = "It breaks only when `"
    i = message.find(marker)
    if i < 0:
        return None
    return message[i + len(marker):].split("`", 1)[0]


def condition_ran(condition):
    """Whether the sweep ran a configuration where the condition can hold: it runs eval and train
    mode in float32 with the generic inputs of ``catalog.GENERIC_INPUTS``, so `self.training` can
    hold, a float16/bfloat16 or device test cannot, and neither can `labels is not None` for an
    optional argument the sweep never passes."""
    import catalog

    def can_hold(alternative):
        low = alternative.lower()
        if any(w in low for w in ("float16", "bfloat16", "half", "cuda", "is_cuda", "xpu", "mps")):
            return False
        for part in alternative.split(" and "):
            part = part.strip().strip("()")
            if part.endswith(" is not None") and part[:-len(" is not None")].strip() not in catalog.GENERIC_INPUTS:
                return False
        return True

    # `and` binds tighter than `or`: the condition can hold when one alternative can
    return any(can_hold(a) for a in condition.split(" or "))


def _line(path, n):
    try:
        with open(path, encoding="utf-8") as f:
            for i, line in enumerate(f, 1):
                if i == n:
                    return line.strip()[:200]
    except OSError:
        pass
    return ""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", required=True, help="the sweep environment's python")
    ap.add_argument("--sample", action="store_true", help="judge the CI sample's results")
    ap.add_argument("--results", default="", help="results folder (default out/torch-VERSION)")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--libs", default="transformers,timm,diffusers,torchvision,torch_geometric",
                    help="the libraries to judge (an environment may hold only some: eval/env.sh has transformers alone)")
    ns = ap.parse_args(argv)

    libs = [l for l in ns.libs.split(",") if l]
    info = env_info(ns.python, libs)
    torch_version = info["torch"]
    results = ns.results or os.path.join(HERE, "out", ("sample-torch-%s" if ns.sample else "torch-%s") % torch_version)
    report = {"torch": torch_version, "libs": {}}
    scratch = tempfile.mkdtemp(prefix="gm-sweep-roots-")
    for lib in libs:
        path = os.path.join(results, lib + ".json")
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        ran = sorted(e for e, r in data["entries"].items() if r.get("status") in ("ran", "partial"))
        pkg_dir = info[lib]["dir"]
        lib_report = {"version": info[lib]["version"], "entries": len(data["entries"]), "ran": len(ran),
                      "catalog_size": data.get("catalog_size"), "modes": {}}
        for mode in ns.modes.split(","):
            extra = []
            if mode == "explicit":
                classes = class_imports(ns.python, ran)
                extra = [roots_file(scratch, lib, ran, classes)]
                lib_report["explicit_roots"] = sum(1 for c in classes.values() if c)
            sys.stderr.write("[compare] %s: graphmend check (%s) over %s\n" % (lib, mode, pkg_dir))
            checked = run_check(pkg_dir, extra, mode, torch_version)
            lib_report["modes"][mode] = judge(lib, pkg_dir, data, checked)
        report["libs"][lib] = lib_report
    out = os.path.join(results, "compare.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1, sort_keys=True)
    for lib, r in report["libs"].items():
        for mode, m in r["modes"].items():
            n = len(m["sites"])
            hit = sum(s["flagged"] for s in m["sites"])
            ex = m["executed_diagnostics"]
            tp = sum(d["true"] for d in ex)
            sys.stderr.write("[compare] %s %s: recall %d/%d, precision on executed lines %d/%d\n" % (
                lib, mode, hit, n, tp, len(ex)))
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
