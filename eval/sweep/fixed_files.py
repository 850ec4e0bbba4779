#!/usr/bin/env python3
"""What `graphmend fix` does to the sweep's library files beyond the breaks: new ruff findings, and
edits inside code Dynamo cannot reach under compile.

    python3 eval/sweep/fixed_files.py --python "$(eval/sweep/env.sh)" [--ruff RUFF] [--libs a,b]

For each library of the fix sweep (``out/fix-torch-VERSION/summary.json``, ``fix_sweep.py``) and
each variant (safe; ``--unsafe-fixes``), the package is copied and fixed again exactly as the fix
sweep does (``fix_sweep.fix_copy``: the files its classes executed, ``--assume-compiled
module-forward``), then every file the fix changed is compared with the installed one:

1. **unreachable edits**: the lines the fix changed (difflib over the two texts) that lie in code
   Dynamo does not trace while compiling, read from the original with CPython's ``ast``: the body
   of ``if torch.jit.is_scripting():`` (the ``else`` of its negation), the ``else`` of ``if
   torch.compiler.is_compiling():`` (and ``torch._dynamo.is_compiling``,
   ``is_torchdynamo_compiling``), the body of ``if not ...is_compiling():``, and functions decorated
   with ``torch.jit.script``, ``torch.jit.ignore``, ``torch.jit.unused``,
   ``torch.compiler.disable`` or ``torch._dynamo.disable``. The goal is none (a fix never touches
   code Dynamo cannot reach, docs/architecture.md);
2. **ruff** (``eval/ruff_diff.py``: default rules, no project configuration), when ``--ruff`` is
   given: findings whose code the fixed file has more often than the original.

Writes ``out/fix-torch-VERSION/fixed_files.json`` and prints a summary; exits 1 when a fix edited
unreachable code or introduced a ruff finding.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "eval"))
import fix_sweep  # noqa: E402  (fix_copy, package_dir, VARIANTS)
import sweep  # noqa: E402  (load, OUT)

SCRIPTING = ("is_scripting",)
COMPILING = ("is_compiling", "is_dynamo_compiling", "is_torchdynamo_compiling")
NOT_TRACED_DECORATORS = ("jit.script", "jit.ignore", "jit.unused", "compiler.disable", "_dynamo.disable")


def _called(test):
    """The called name of a test ``f()`` or ``not f()``, with whether it is negated."""
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    if negated:
        test = test.operand
    if isinstance(test, ast.Call) and not test.args:
        return ast.unparse(test.func), negated
    return None, False


def _span(stmts):
    return (stmts[0].lineno, max(s.end_lineno for s in stmts)) if stmts else None


def unreachable_regions(source):
    """The 1-based line ranges of ``source`` that Dynamo does not trace while compiling."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            name, negated = _called(node.test)
            if not name:
                continue
            last = name.rsplit(".", 1)[-1]
            if last in SCRIPTING:  # False while compiling: its body is not traced
                region = node.orelse if negated else node.body
            elif last in COMPILING:  # True while compiling: its else (or a negation's body) is not traced
                region = node.body if negated else node.orelse
            else:
                continue
            if _span(region):
                out.append(_span(region))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in node.decorator_list:
                text = ast.unparse(d.func if isinstance(d, ast.Call) else d)
                if any(text.endswith(k) for k in NOT_TRACED_DECORATORS):
                    out.append((node.lineno, node.end_lineno))
    return out


def changed_lines(before, after):
    """The 1-based lines of ``before`` the edit replaced or deleted, and those it inserted before."""
    a, b = before.splitlines(), after.splitlines()
    lines = set()
    for op, i1, i2, _, _ in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op in ("replace", "delete"):
            lines.update(range(i1 + 1, i2 + 1))
        elif op == "insert":
            lines.add(i1 + 1 if i1 < len(a) else len(a))  # an insertion sits before original line i1 + 1
    return lines


def unreachable_edits(before, after):
    regions = unreachable_regions(before)
    hits = []
    for line in sorted(changed_lines(before, after)):
        for lo, hi in regions:
            if lo <= line <= hi:
                hits.append(line)
                break
    return hits


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", required=True, help="the sweep environment's python (eval/sweep/env.sh)")
    ap.add_argument("--ruff", default="", help="a ruff executable: also count new ruff findings")
    ap.add_argument("--libs", default="", help="only these libraries (default: every library of the fix sweep)")
    ns = ap.parse_args(argv)
    version = fix_sweep.torch_version(ns.python)
    out_dir = os.path.join(sweep.OUT, "fix-torch-" + version)
    summary = sweep.load(os.path.join(out_dir, "summary.json")) or {"libraries": {}}
    scratch = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "graphmend",
                           "sweep-scratch-" + version, "fixed-files")
    jar = os.path.join(scratch, "graphmend.jar")
    os.makedirs(scratch, exist_ok=True)
    subprocess.run([os.path.join(ROOT, "graphmend"), "--version"], capture_output=True)  # builds a stale jar
    shutil.copyfile(os.path.join(ROOT, "server", "target", "graphmend.jar"), jar)
    before_dir = os.path.join(sweep.OUT, "torch-" + version)
    report = {"torch": version, "libraries": {}}
    status = 0
    wanted = [l for l in ns.libs.split(",") if l] or sorted(summary["libraries"])
    for lib in wanted:
        before = sweep.load(os.path.join(before_dir, lib + ".json"))
        if not before:
            continue
        entries = fix_sweep.breaking_entries(before)
        files = sorted({f for e in entries for f in before["entries"][e].get("executed", {})})
        if not files:
            continue
        src_pkg = fix_sweep.package_dir(ns.python, lib)
        for variant, flags in fix_sweep.VARIANTS.items():
            copy_root = os.path.join(scratch, variant)
            fx = fix_sweep.fix_copy(["java", "-jar", jar], src_pkg, copy_root, files, flags)
            fixed_pkg = os.path.join(copy_root, os.path.basename(src_pkg))
            changed, hits = [], {}
            for rel in files:
                a_path, b_path = os.path.join(src_pkg, rel), os.path.join(fixed_pkg, rel)
                if not os.path.isfile(a_path) or not os.path.isfile(b_path):
                    continue
                with open(a_path, encoding="utf-8", errors="replace") as f:
                    a = f.read()
                with open(b_path, encoding="utf-8", errors="replace") as f:
                    b = f.read()
                if a == b:
                    continue
                changed.append(rel)
                h = unreachable_edits(a, b)
                if h:
                    hits[rel] = h
            row = report["libraries"].setdefault(lib, {})[variant] = {
                "fix": fx["summary"], "files_changed": len(changed), "unreachable_edits": hits}
            if hits:
                status = 1
            if ns.ruff and changed:
                r = subprocess.run([sys.executable, os.path.join(ROOT, "eval", "ruff_diff.py"), "--ruff", ns.ruff,
                                    "--original", src_pkg, "--fixed", fixed_pkg],
                                   capture_output=True, text=True)
                row["ruff"] = r.stdout.strip().splitlines()[-1:] or [""]
                row["ruff_new_findings"] = r.returncode != 0
                if r.returncode != 0:
                    status = 1
                    row["ruff_lines"] = [l for l in r.stdout.splitlines() if l.strip()][:40]
            sys.stderr.write("[fixed-files] %s %s: %d file(s) changed, %d with edits in unreachable code%s\n" % (
                lib, variant, len(changed), len(hits),
                "; ruff: %s" % row["ruff"][0] if "ruff" in row else ""))
    path = os.path.join(out_dir, "fixed_files.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1, sort_keys=True)
    print(path)
    return status


if __name__ == "__main__":
    sys.exit(main())
