#!/usr/bin/env python3
"""Dynamo oracle: run fixture cases under real TorchDynamo and report where it breaks the graph.

Run it with the torch environment's python (``scripts/torch-env`` prints its path):

    python tools/dynamo_oracle.py FILE_OR_DIR...                 readable report
    python tools/dynamo_oracle.py --json FILE_OR_DIR...          one JSON object on stdout
    python tools/dynamo_oracle.py --expectations FILE_OR_DIR...  compare `# expect:` markers

Cases follow passes/src/test/resources/fixtures/README.md: every top-level function named
``case_*`` (a ``@torch.compile`` wrapper is unwrapped to the original function through
``_torchdynamo_orig_callable`` / ``__wrapped__``) and every top-level ``nn.Module`` subclass named
``Case*`` (constructed with no arguments, put in eval mode, explained through the instance, so
its ``forward`` runs). Inputs come from a module-level ``ARGS = {"case_name": lambda: (...)}``
entry, or else ``torch.randn(4, 4)`` per parameter without a default (seeded with 0). A case with
an entry in a module-level ``RUN = {"case_name": callable}`` is not run as a root: the oracle
calls the entry instead (seeded with 0), which runs the program of the case's block as written, so
Dynamo traces only what that program's own ``torch.compile`` forms compile (a root form, or a
method a compiled module leaves eager).

How breaks are observed: for each case the oracle calls ``torch._dynamo.reset()`` and runs
``torch._dynamo.explain(fn)(*args)`` (or, where ``explain`` is missing, ``torch.compile`` with a
backend that just returns the graph). ``explain``'s own ``break_reasons`` only knows about breaks
that end a non-empty graph, so a break before the first op would be missed; the oracle therefore
also wraps ``InstructionTranslatorBase.log_graph_break`` (the single place where Dynamo logs every
graph break it recovers from: data-dependent jumps, unsupported calls, breaks it cannot resume
from, "skip the whole frame" fallbacks) and records there the exception's user stack and its
``gb_type``. The break's line is the innermost frame of that stack that lies in the fixture file
(1-based): a break inside a helper defined in the fixture is reported at the helper's line (the
caller's frame is further out on the same stack). Breaks are deduplicated per case by line (Dynamo
logs the same site again when it retraces a frame or a resume function). ``GM_ORACLE_DEBUG=1``
prints every raw break and its stack to stderr. The GB id
is the row of ``docs/reference/dynamo-graph-break-ids.tsv`` (or ``$GRAPHMEND_GB_IDS``) whose ``gb_type`` equals the root cause's ``gb_type``; torch's own
``graph_break_registry.json`` is the fallback. A case that raises is reported with ``error`` set.

``--json`` prints ``{"torch", "python", "files": [{"path", "error", "cases": [{"name", "error",
"breaks": [{"line", "reason", "gb"}]}]}]}``; ``error`` is null unless the file could not be imported
or the case raised (an error is reported, never dropped); a break whose user stack never enters the
fixture file has ``"line": null`` and a ``where`` key, except one whose whole stack lies in the torch
package (a frame of torch's own code that Dynamo compiled by itself when a call it broke on ran
outside the graph, e.g. Optimizer.step): such breaks are listed apart, in the case's
``torch_breaks`` (``where``, ``reason``, ``gb``); ``--expectations`` accepts them, as notes, only in
a case that also breaks at a line of the fixture. ``gb`` is null when no id matches. It keeps
stdout for the JSON object only: while cases run, file descriptor 1 points at
stderr, so prints in fixtures and torch's warnings go there.

``--expectations`` compares, per file, the set of lines that carry a GM1xx/GM2xx ``# expect:``
marker with the set of lines where Dynamo breaks, prints every disagreement and the markers'
precision/recall against Dynamo, and exits 1 on any disagreement (or case error). A marker code
whose usual GB ids do not include the id Dynamo reported is printed as a note, not a disagreement.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib.util
import inspect
import io
import json
import os
import re
import sys
import tokenize
import traceback

MARKER = re.compile(r"#\s*expect:\s*(.*)$")
ROOT_CODE = re.compile(r"\bGM301\b")  # capture-at-root: judged by compiling the case with fullgraph=True
VERDICT = re.compile(r"#\s*expect-verdict:\s*(eval|train)\s+(one graph|breaks)\s*$")
CODE = re.compile(r"\bGM[12]\d\d\b")
WRAPPED = "*** While handling this graph break, another graph break occurred: ***"

# The Dynamo ids each rule usually corresponds to (docs/rules/README.md); used only for notes.
RULE_GB = {
    "GM101": {"GB0170"},
    "GM103": {"GB0170"},
    "GM102": {"GB0059", "GB0291", "GB0007"},
    "GM201": {"GB0124", "GB0109", "GB0033"},
    "GM202": {"GB0036", "GB0246"},
    "GM203": {"GB9193", "GB0025", "GB0098", "GB0099", "GB4198", "GB0007", "GB0033", "GB0225", "GB4841", "GB0179", "GB0206", "GB8985"},
    "GM204": {"GB0142"},
    "GM205": {"GB0123", "GB9186", "GB0007", "GB0025", "GB0008"},
}


# ---------------------------------------------------------------------------------------------
# Files, cases, markers


def expand(paths):
    """Files named, and the *.py files under folders named, in sorted order."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                out.extend(os.path.join(root, f) for f in sorted(files) if f.endswith(".py"))
        else:
            out.append(p)
    return out


def fullgraph_cases(source):
    """The top-level `case_*` functions whose `@torch.compile(...)` decorator says fullgraph=True: the
    oracle compiles them so, as the program would (their captured reads are then no breaks)."""
    out = set()
    for node in ast.parse(source).body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or not node.name.startswith("case_"):
            continue
        for d in node.decorator_list:
            if isinstance(d, ast.Call) and getattr(d.func, "attr", getattr(d.func, "id", None)) == "compile" and any(
                    k.arg == "fullgraph" and isinstance(k.value, ast.Constant) and k.value.value is True for k in d.keywords):
                out.add(node.name)
    return out


def case_blocks(source):
    """[(name, first_line, last_line)] of the top-level cases, in file order (README 'block')."""
    tree = ast.parse(source)
    heads = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("case_"):
            heads.append(node)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Case"):
            heads.append(node)
    n_lines = len(source.splitlines())
    blocks = []
    for i, node in enumerate(heads):
        first = min([node.lineno] + [d.lineno for d in node.decorator_list])
        if i + 1 < len(heads):
            nxt = heads[i + 1]
            last = min([nxt.lineno] + [d.lineno for d in nxt.decorator_list]) - 1
        else:
            last = n_lines
        blocks.append((node.name, first, last))
    return blocks


def comments(path):
    """(line, text) of every comment token of the file."""
    with open(path, "rb") as f:
        for tok in tokenize.tokenize(f.readline):
            if tok.type == tokenize.COMMENT:
                yield tok.start[0], tok.string


def markers(path):
    """{line: [codes]} for the GM1xx/GM2xx codes of the `# expect:` comments in the file."""
    found = {}
    for line, text in comments(path):
        m = MARKER.search(text)
        codes = CODE.findall(m.group(1)) if m else []
        if codes:
            found.setdefault(line, []).extend(codes)
    return found


def capture_markers(path):
    """The lines of the `# expect: GM301` comments (a root every break of which fullgraph=True captures)."""
    found = set()
    for line, text in comments(path):
        m = MARKER.search(text)
        if m and ROOT_CODE.search(m.group(1)):
            found.add(line)
    return found


def same_output(torch_mod, a, b):
    """torch.equal for tensors (NaN equal to NaN, dtypes and shapes matching), == otherwise; recursive."""
    if isinstance(a, torch_mod.Tensor) or isinstance(b, torch_mod.Tensor):
        return (isinstance(a, torch_mod.Tensor) and isinstance(b, torch_mod.Tensor) and a.dtype == b.dtype
                and a.shape == b.shape and bool(torch_mod.equal(a.nan_to_num(0.0, 0.0, 0.0) if a.is_floating_point() else a,
                                                             b.nan_to_num(0.0, 0.0, 0.0) if b.is_floating_point() else b))
                and bool(torch_mod.equal(a.isnan(), b.isnan()) if a.is_floating_point() else True))
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(same_output(torch_mod, x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def run_fullgraph(torch_mod, target, args):
    """{"ok", "same", "error"}: the case compiled with fullgraph=True (backend "eager") beside its eager run."""
    result = {"ok": False, "same": False, "error": None}
    try:
        torch_mod.manual_seed(0)
        eager = target(*args)
        torch_mod._dynamo.reset()
        torch_mod.manual_seed(0)
        compiled = torch_mod.compile(target, fullgraph=True, backend="eager")(*args)
        result["ok"] = True
        result["same"] = same_output(torch_mod, eager, compiled)
    except Exception as e:  # noqa: BLE001 - the failure is the result
        result["error"] = "%s: %s" % (type(e).__name__, first_line(str(e)))
    finally:
        torch_mod._dynamo.reset()
    return result


def verdict_markers(path):
    """{line: (mode, "one graph" | "breaks", name)} of the `# expect-verdict:` comments; name is the
    module-level `name = torch.compile(...)` the line assigns (None when the line assigns no one name)."""
    found = {}
    for line, text in comments(path):
        m = VERDICT.search(text)
        if m:
            found[line] = (m.group(1), m.group(2), None)
    if found:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in tree.body:
            if (isinstance(node, ast.Assign) and node.lineno in found and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name)):
                mode, verdict, _ = found[node.lineno]
                found[node.lineno] = (mode, verdict, node.targets[0].id)
    return found


# ---------------------------------------------------------------------------------------------
# GB ids


def load_gb_ids(torch_mod):
    """{gb_type: id} from the reference tsv, else from torch's graph_break_registry.json."""
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [
        os.environ.get("GRAPHMEND_GB_IDS"),
        os.path.join(here, "..", "docs", "reference", "dynamo-graph-break-ids.tsv"),
    ]
    ids = {}
    for c in candidates:
        if c and os.path.isfile(c):
            with open(c, encoding="utf-8") as f:
                for row in f.read().splitlines()[1:]:
                    parts = row.split("\t")
                    if len(parts) >= 2 and parts[1] not in ids:
                        ids[parts[1]] = parts[0]
            break
    registry = os.path.join(os.path.dirname(torch_mod.__file__), "_dynamo", "graph_break_registry.json")
    if os.path.isfile(registry):
        with open(registry, encoding="utf-8") as f:
            for gb_id, entries in json.load(f).items():
                for e in entries:
                    ids.setdefault(e.get("Gb_type", ""), gb_id)
    return ids


def root_gb_type(exc):
    """gb_type of the deepest Unsupported in the exception's cause chain (the original break)."""
    best = getattr(exc, "gb_type", None)
    seen = set()
    cur = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if getattr(cur, "gb_type", None):
            best = cur.gb_type
        cur = cur.__cause__ or cur.__context__
    # A break raised while handling another one (e.g. "graph break in loop") carries the earlier
    # message first, and every Dynamo message starts with its gb_type.
    msg = getattr(exc, "msg", "") or ""
    if WRAPPED in msg:
        best = msg.splitlines()[0].strip() or best
    return best


# ---------------------------------------------------------------------------------------------
# Running under Dynamo


class LoggedBreak(Exception):
    """A break logged without its exception (torch 2.10's log_graph_break takes the reason and
    the user stack only): the gb_type is the message's first line after any prefix line that
    ends in a colon ("Encountered graph break that we cannot resume from ... encountered:")."""

    def __init__(self, reason, user_stack):
        super().__init__(reason)
        self.msg = reason
        self.real_stack = user_stack
        lines = [l.strip() for l in reason.splitlines() if l.strip()]
        while len(lines) > 1 and lines[0].endswith(":"):
            lines.pop(0)
        self.gb_type = lines[0] if lines else None


class Recorder:
    """Wraps Dynamo's graph-break logging to keep every break with its user stack."""

    def __init__(self, torch_mod):
        from torch._dynamo import symbolic_convert as sc

        self.events = None
        recorder = self
        if not hasattr(sc.InstructionTranslatorBase, "log_graph_break"):
            self._wrap_module_function(torch_mod, sc)
            return
        original = sc.InstructionTranslatorBase.log_graph_break

        def log_graph_break(tx, code_options, *args, **kwargs):
            # torch 2.15: (code_options, reason, exc); torch 2.10: (code_options, reason="", user_stack=None)
            reason = kwargs.get("reason", args[0] if args else "")
            exc = kwargs.get("exc", args[1] if len(args) > 1 and isinstance(args[1], BaseException) else None)
            if exc is None:
                exc = LoggedBreak(str(reason), kwargs.get("user_stack", args[1] if len(args) > 1 else None))
            if recorder.events is not None and not getattr(exc, "logged", False):
                stack = getattr(exc, "real_stack", None)
                if not stack:
                    stack = torch_mod._guards.TracingContext.extract_stack()
                frames = [(os.path.realpath(fs.filename), fs.lineno, fs.name) for fs in stack]
                if not frames:  # first instruction of the frame
                    frames = [(os.path.realpath(code_options["co_filename"]),
                               code_options["co_firstlineno"], code_options.get("co_name", "?"))]
                recorder.events.append((frames, str(reason), exc))
            return original(tx, code_options, *args, **kwargs)

        sc.InstructionTranslatorBase.log_graph_break = log_graph_break

    def _wrap_module_function(self, torch_mod, sc):
        """torch 2.9 and older log breaks through the module function
        ``log_graph_break(code_options, reason="", exc_info=False, user_stack=None)``, called
        by its global name, so replacing the module attribute reaches every caller."""
        recorder = self
        original = sc.log_graph_break

        def log_graph_break(code_options, reason="", exc_info=False, user_stack=None):
            exc = sys.exc_info()[1] if exc_info else None
            if exc is None:
                exc = LoggedBreak(str(reason), user_stack)
            if recorder.events is not None and not getattr(exc, "logged", False):
                stack = user_stack or getattr(exc, "real_stack", None)
                if not stack:
                    stack = torch_mod._guards.TracingContext.extract_stack()
                frames = [(os.path.realpath(fs.filename), fs.lineno, fs.name) for fs in stack]
                if not frames:
                    frames = [(os.path.realpath(code_options["co_filename"]),
                               code_options["co_firstlineno"], code_options.get("co_name", "?"))]
                recorder.events.append((frames, str(reason), exc))
            return original(code_options, reason=reason, exc_info=exc_info, user_stack=user_stack)

        sc.log_graph_break = log_graph_break


def first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return text.strip()


def summarize_reason(reason, exc):
    """One readable line: 'gb_type: explanation-ish context' taken from Dynamo's message."""
    text = getattr(exc, "msg", None) or reason
    # Dynamo's messages look like "<gb_type>\n  Explanation: ...\n  Hint: ...\n  Developer debug context: ..."
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    ctx = next((l for l in lines if l.startswith("Developer debug context:")), "")
    head = lines[0] if lines else ""
    if WRAPPED in text:
        outer = text.split(WRAPPED, 1)[1].strip().splitlines()
        head += " (then: %s)" % (outer[0].strip() if outer else "?")
    if "Failed to handle graph break gracefully" in reason or "cannot resume from" in reason:
        head = first_line(reason) + " " + head
    return (head + (" | " + ctx if ctx else ""))[:500]


TORCH_DIR = None


def in_torch(filename):
    """Whether a frame's file is part of the torch package itself."""
    return TORCH_DIR is not None and filename.startswith(TORCH_DIR + os.sep)


def unwrap(fn):
    seen = set()
    while id(fn) not in seen:
        seen.add(id(fn))
        inner = getattr(fn, "_torchdynamo_orig_callable", None)
        if inner is None:
            inner = getattr(fn, "__wrapped__", None)
        if inner is None:
            break
        fn = inner
    return fn


def default_args(torch_mod, fn):
    torch_mod.manual_seed(0)
    args = []
    for p in inspect.signature(fn).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.KEYWORD_ONLY):
            continue
        if p.default is p.empty:
            args.append(torch_mod.randn(4, 4))
    return tuple(args)


def import_fixture(path, index):
    name = "_gm_fixture_%d_%s" % (index, re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0]))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def run_case(torch_mod, recorder, gb_ids, path, module, name, fullgraph=False, compiled_fullgraph=False):
    real = os.path.realpath(path)
    result = {"name": name, "breaks": [], "torch_breaks": [], "error": None}
    try:
        obj = getattr(module, name)
        if isinstance(obj, type):
            if not issubclass(obj, torch_mod.nn.Module):
                raise TypeError("%s is not an nn.Module subclass" % name)
            # eval mode unless the fixture lists the class in TRAIN_MODE (paths only training runs)
            target = obj().train(name in (getattr(module, "TRAIN_MODE", ()) or ()))
            sig_fn = target.forward
        else:
            target = unwrap(obj)
            sig_fn = target
        runs = getattr(module, "RUN", {}) or {}
        table = getattr(module, "ARGS", {}) or {}
        if name in runs:
            target, args = None, ()
        elif name in table:
            torch_mod.manual_seed(0)
            args = table[name]()
            if not isinstance(args, tuple):
                args = (args,)
        else:
            args = default_args(torch_mod, sig_fn)
    except Exception as e:  # noqa: BLE001 - reported, not dropped
        result["error"] = "setup: %s: %s" % (type(e).__name__, first_line(str(e)) or "")
        return result

    dynamo = torch_mod._dynamo
    seen_breaks = {}
    with recording(torch_mod, recorder, seen_breaks):
        try:
            if target is None:
                # the program's own call: only what its torch.compile forms compile is traced
                torch_mod.manual_seed(0)
                runs[name]()
            elif compiled_fullgraph:
                torch_mod.compile(target, fullgraph=True, backend="eager")(*args)
            elif hasattr(dynamo, "explain"):
                dynamo.explain(target)(*args)
            else:
                def backend(gm, example_inputs):
                    return gm.forward
                torch_mod.compile(target, backend=backend)(*args)
        except Exception as e:  # noqa: BLE001 - reported, not dropped
            result["error"] = "%s: %s" % (type(e).__name__, first_line(str(e)))
            traceback.print_exc(file=sys.stderr)
    events, counted = seen_breaks["events"], seen_breaks["counted"]
    if counted and not events:
        # Safety net: Dynamo counted a break that never went through log_graph_break.
        result["breaks"].append({"line": None, "reason": "counted but not logged: " + first_line(counted[0]),
                                 "gb": None, "where": "?"})

    seen = set()
    for frames, reason, exc in events:
        if os.environ.get("GM_ORACLE_DEBUG"):
            sys.stderr.write("[oracle] %s: %s %s\n    %s\n" % (
                name, type(exc).__name__, getattr(exc, "gb_type", None),
                " > ".join("%s:%s" % (os.path.basename(f), l) for f, l, _ in frames)))
        inside = [f for f in frames if f[0] == real]
        line = inside[-1][1] if inside else None
        where = "%s:%s" % (frames[-1][0], frames[-1][1]) if frames else "?"
        if line is None and frames and all(in_torch(f[0]) for f in frames):
            # A frame of torch's own code that Dynamo traced by itself: after a break at a call
            # (opt.step()), the callee runs outside the graph and Dynamo compiles its frame, which
            # may break again (Optimizer.step's graph_break). No line of the fixture is in that
            # stack; it is kept apart, and counts only beside a break in the fixture (see
            # check_expectations).
            key = ("torch", where)
            if key in seen:
                continue
            seen.add(key)
            result["torch_breaks"].append({"where": where, "reason": summarize_reason(reason, exc),
                                           "gb": gb_ids.get(root_gb_type(exc) or "")})
            continue
        if line in seen:
            continue
        seen.add(line)
        gb_type = root_gb_type(exc)
        entry = {"line": line, "reason": summarize_reason(reason, exc), "gb": gb_ids.get(gb_type or "")}
        if line is None:
            entry["where"] = where
        result["breaks"].append(entry)
    result["breaks"].sort(key=lambda b: (b["line"] is None, b["line"] or 0))
    if fullgraph:
        # a `# expect: GM301` root: one keyword, fullgraph=True, must give one graph and the same output
        result["fullgraph"] = run_fullgraph(torch_mod, target, args) if target is not None else {
            "ok": None, "same": None, "error": "not judged: a RUN case's program compiles the root itself"}
    return result


def run_verdict(torch_mod, recorder, module, line, mode, name, args):
    """Calls one compiled root alone: {"line", "mode", "expected", "training", "breaks", "error"}."""
    result = {"line": line, "mode": mode, "expected": None, "name": name, "training": None,
              "breaks": None, "error": None}
    if name is None:
        result["error"] = "the marker's line assigns no one name"
        return result
    seen_breaks = {}
    with recording(torch_mod, recorder, seen_breaks):
        try:
            compiled = getattr(module, name)
            inner = getattr(compiled, "_orig_mod", compiled)
            result["training"] = getattr(inner, "training", None)
            torch_mod.manual_seed(0)
            compiled(*args)
        except Exception as e:  # noqa: BLE001 - reported, not dropped
            result["error"] = "%s: %s" % (type(e).__name__, first_line(str(e)))
            traceback.print_exc(file=sys.stderr)
    result["breaks"] = len(seen_breaks["events"]) or len(seen_breaks["counted"])
    return result


@contextlib.contextmanager
def recording(torch_mod, recorder, out):
    """Runs the block on a reset Dynamo and puts the breaks it logged into ``out["events"]``
    (the recorder's) and ``out["counted"]`` (Dynamo's graph_break counters), then resets again."""
    dynamo = torch_mod._dynamo
    dynamo.reset()
    dynamo.utils.counters.clear()
    recorder.events = []
    try:
        yield
    finally:
        out["events"], recorder.events = recorder.events, None
        out["counted"] = [msg for msg, n in dynamo.utils.counters["graph_break"].items() if n > 0]
        dynamo.reset()


def analyse(paths):
    import torch
    import torch._dynamo

    global TORCH_DIR
    TORCH_DIR = os.path.realpath(os.path.dirname(torch.__file__))
    gb_ids = load_gb_ids(torch)
    recorder = Recorder(torch)
    report = {"torch": torch.__version__, "python": sys.version.split()[0], "files": []}
    for index, path in enumerate(expand(paths)):
        entry = {"path": path, "cases": [], "error": None}
        report["files"].append(entry)
        try:
            with open(path, encoding="utf-8") as f:
                source = f.read()
            blocks = case_blocks(source)
            declared_fullgraph = fullgraph_cases(source)
            module = import_fixture(path, index)
        except Exception as e:  # noqa: BLE001
            entry["error"] = "%s: %s" % (type(e).__name__, first_line(str(e)))
            traceback.print_exc(file=sys.stderr)
            continue
        captures = capture_markers(path)
        for name, first, last in blocks:
            entry["cases"].append(run_case(torch, recorder, gb_ids, path, module, name,
                                           # a file that judges GM301 judges every case: the roots
                                           # without the marker are listed with what fullgraph=True does
                                           fullgraph=bool(captures),
                                           compiled_fullgraph=name in declared_fullgraph))
        # each `# expect-verdict:` root alone, with the inputs of the case whose block holds it
        entry["verdicts"] = []
        table = getattr(module, "ARGS", {}) or {}
        for line, (mode, verdict, name) in sorted(verdict_markers(path).items()):
            owner = next((n for n, a, b in blocks if a <= line <= b), None)
            key = name if name in table else owner  # the root's own inputs (a half-precision one), else its case's
            args = table[key]() if key in table else (torch.randn(4, 4),)
            if not isinstance(args, tuple):
                args = (args,)
            v = run_verdict(torch, recorder, module, line, mode, name, args)
            v["expected"] = verdict
            entry["verdicts"].append(v)
    return report


# ---------------------------------------------------------------------------------------------
# Output


def print_report(report, out):
    out.write("torch %s, python %s\n" % (report["torch"], report["python"]))
    for f in report["files"]:
        out.write("\n== %s\n" % f["path"])
        if f.get("error"):
            out.write("  ! file error: %s\n" % f["error"])
        for c in f["cases"]:
            status = "error: " + c["error"] if c["error"] else ("%d break(s)" % len(c["breaks"]) if c["breaks"] else "no break")
            out.write("  %s: %s\n" % (c["name"], status))
            for b in c["breaks"]:
                out.write("    line %s [%s] %s\n" % (b["line"], b["gb"] or "?", b["reason"]))
            for b in c.get("torch_breaks", ()):
                out.write("    in torch's own code, %s [%s] %s\n" % (b["where"], b["gb"] or "?", b["reason"]))


def check_expectations(report, out):
    """Print every disagreement between markers and Dynamo; return the number of them."""
    total_disagree = 0
    tp = n_markers = n_breaks = 0
    for f in report["files"]:
        path = f["path"]
        marks = markers(path)
        with open(path, encoding="utf-8") as fh:
            blocks = case_blocks(fh.read())

        def owner(line):
            for name, a, b in blocks:
                if a <= line <= b:
                    return name
            return "-"

        problems = []
        notes = []
        if f.get("error"):
            problems.append("%s: file error: %s" % (path, f["error"]))
        breaks = {}
        for c in f["cases"]:
            if c["error"]:
                problems.append("%s: [%s] case raised: %s" % (path, c["name"], c["error"]))
            if c.get("torch_breaks"):
                if any(b["line"] is not None for b in c["breaks"]):
                    for b in c["torch_breaks"]:
                        notes.append("%s: [%s] note: Dynamo also breaks in torch's own code, in a frame it traced after "
                                     "a break in this case (%s, %s): %s" % (path, c["name"], b["where"], b["gb"] or "?",
                                                                           b["reason"]))
                else:
                    for b in c["torch_breaks"]:
                        problems.append("%s: [%s] Dynamo breaks only in torch's own code (%s): %s"
                                        % (path, c["name"], b["where"], b["reason"]))
            for b in c["breaks"]:
                if b["line"] is None:
                    problems.append("%s: [%s] Dynamo breaks outside this file (%s): %s"
                                    % (path, c["name"], b.get("where"), b["reason"]))
                    continue
                breaks.setdefault(b["line"], dict(b, case=c["name"]))
        for line in sorted(set(marks) | set(breaks)):
            if line in marks and line not in breaks:
                problems.append("%s:%d [%s] marker %s but Dynamo does not break here"
                                % (path, line, owner(line), ", ".join(marks[line])))
            elif line in breaks and line not in marks:
                b = breaks[line]
                problems.append("%s:%d [%s] Dynamo breaks here (%s) but there is no marker: %s"
                                % (path, line, b["case"], b["gb"] or "?", b["reason"]))
            else:
                gb = breaks[line]["gb"]
                if gb and not any(gb in RULE_GB.get(code, ()) for code in marks[line]):
                    notes.append("%s:%d [%s] note: marker %s, Dynamo reports %s: %s"
                                 % (path, line, owner(line), ", ".join(marks[line]), gb, breaks[line]["reason"]))
        for line in sorted(capture_markers(path)):
            c = next((c for c in f["cases"] if c["name"] == owner(line)), None)
            g = (c or {}).get("fullgraph")
            if g is None:
                problems.append("%s:%d GM301 marker outside a case" % (path, line))
            elif g["ok"] is None:
                notes.append("%s:%d [%s] NOT RUN: GM301 marker %s" % (path, line, c["name"], g["error"]))
            elif not g["ok"]:
                problems.append("%s:%d [%s] GM301 marker, but fullgraph=True fails: %s" % (path, line, c["name"], g["error"]))
            elif not g["same"]:
                problems.append("%s:%d [%s] GM301 marker, but the fullgraph=True output differs from eager" % (path, line, c["name"]))
            elif not c["breaks"]:
                problems.append("%s:%d [%s] GM301 marker, but the case does not break without fullgraph=True" % (path, line, c["name"]))
        marked = {owner(line) for line in capture_markers(path)}
        for c in f["cases"]:
            g = c.get("fullgraph")
            if g is None or c["name"] in marked or not c["breaks"] or g["ok"] is None:
                continue
            notes.append("%s: [%s] no GM301 marker; fullgraph=True: %s" % (
                path, c["name"], "one graph, same output" if g["ok"] and g["same"] else
                "one graph, output differs" if g["ok"] else "fails: " + (g["error"] or "")[:160]))
        for v in f.get("verdicts", ()):
            said = "breaks" if v["breaks"] else "one graph"
            if v["error"]:
                problems.append("%s:%d [%s] verdict marker: %s" % (path, v["line"], owner(v["line"]), v["error"]))
            elif v["training"] is not (v["mode"] == "train"):
                problems.append("%s:%d [%s] verdict marker says %s mode, but %s is in %s mode"
                                % (path, v["line"], owner(v["line"]), v["mode"], v["name"],
                                   "train" if v["training"] else "eval"))
            elif said != v["expected"]:
                problems.append("%s:%d [%s] verdict marker says %s %s, but Dynamo: %s (%d break(s))"
                                % (path, v["line"], owner(v["line"]), v["mode"], v["expected"], said, v["breaks"]))
        agree = len(set(marks) & set(breaks))
        tp += agree
        n_markers += len(marks)
        n_breaks += len(breaks)
        out.write("== %s: %d case(s), %d marker line(s), %d Dynamo break line(s), %d verdict marker(s), %d disagreement(s)\n"
                  % (path, len(f["cases"]), len(marks), len(breaks), len(f.get("verdicts", ())), len(problems)))
        for p in problems:
            out.write("  " + p + "\n")
        for n in notes:
            out.write("  " + n + "\n")
        total_disagree += len(problems)
    precision = tp / n_markers if n_markers else 1.0
    recall = tp / n_breaks if n_breaks else 1.0
    out.write("torch %s: markers %d, Dynamo break lines %d, agreeing %d; precision %.3f, recall %.3f; "
              "%d disagreement(s)\n" % (report["torch"], n_markers, n_breaks, tp, precision, recall, total_disagree))
    return total_disagree


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    mode.add_argument("--expectations", action="store_true",
                      help="compare `# expect:` markers with Dynamo's breaks; exit 1 on disagreement")
    ap.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    ns = ap.parse_args(argv)

    missing = [p for p in ns.paths if not os.path.exists(p)]
    if missing:
        ap.error("no such file or folder: " + ", ".join(missing))

    # Everything torch or the fixtures write goes to stderr; stdout gets only our output.
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            report = analyse(ns.paths)
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)

    if ns.json:
        json.dump(report, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return 0
    if ns.expectations:
        buf = io.StringIO()
        n = check_expectations(report, buf)
        sys.stdout.write(buf.getvalue())
        return 1 if n else 0
    print_report(report, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
