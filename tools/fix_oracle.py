#!/usr/bin/env python3
"""Fix oracle: judge `graphmend fix` rewrites under real TorchDynamo, case by case.

Run it with the torch environment's python (``scripts/torch-env`` prints its path):

    python tools/fix_oracle.py FILE_OR_DIR...              readable report, exit 1 on any failure
    python tools/fix_oracle.py --json FILE_OR_DIR...       one JSON object on stdout
    python tools/fix_oracle.py --pair ORIG.py FIXED.py     an explicit pair (repeatable)
    python tools/fix_oracle.py --corpus FILE_OR_DIR...     check the before-files only (no fixed files)

Pairs: ``X.py`` is paired with its sibling ``X.fixed.py`` (naming either one names the pair); a
folder stands for every ``X.py`` in it (recursively) that has a sibling ``X.fixed.py`` (the others
are listed as skipped). Cases and markers follow passes/src/test/resources/fixes/README.md: top-level
``case_*`` functions (a ``@torch.compile`` wrapper is unwrapped, its ``fullgraph=True`` kept) and ``Case*`` nn.Modules (seeded
with 0, constructed with no arguments, eval mode); inputs from ``INPUTS = {"name": [lambda: (...),
...]}`` (else ``ARGS`` / ``torch.randn(4, 4)`` per parameter, as in tools/dynamo_oracle.py); a case
is *declined* when its block holds ``# expect-decline: GMxxx reason``; ``# expect-fix: GMxxx unsafe``
marks an unsafe fix (its printed/logged/warned output may differ under compile).

Per case, in a fresh process per pair (the fixed files change global Dynamo configuration):
  * breaks_before / breaks_after: unique break lines (counted like tools/dynamo_oracle.py: the
    innermost user frame in the file, over every graph break Dynamo logs) while
    ``torch.compile(case, backend="eager")`` runs every input on which the original does not raise;
  * the original's eager output, the fixed eager output, the fixed compiled output (backend
    "eager") and, when no break is left, the output of ``torch.compile(fixed, fullgraph=True,
    backend="eager")`` (``fullgraph_ok``), compared with torch.equal (NaN equal to NaN; dtypes,
    shapes and Python types must match; tuples/lists/dicts recursively);
  * an input on which the original raises must make every fixed run raise (any exception; the
    types are recorded); a fullgraph run must not fail with a Dynamo error instead, except that a
    TorchRuntimeError (a fake-tensor op failing while tracing) on an input on which the original
    raised a plain RuntimeError is that input's own error found at trace time (recorded as
    ``raised_while_tracing``);
  * side effects, one ordered list per run (stdout text, warnings issued from the file with their
    category, records of the file's loggers with level, message and function) of the original
    eager run must equal those of the fixed eager run, and those of the fixed compiled run unless
    the fix is marked unsafe (`grad_fn=<...>` names in printed tensors are ignored; once-only
    Logger methods such as warning_once are reset before every run);
  * a declined case must be left unchanged (same AST) and keep its breaks.
Failures: outputs differ, a raise not preserved, fullgraph fails although no break is left, breaks
left in a case that is not declined, a declined case rewritten or without breaks, side effects that
differ, a case error (missing in the fixed file, an input that fails, a crash under Dynamo), and, in
a file that names ``torch.jit.`` (a project that uses TorchScript), a module case that
``torch.jit.script`` compiles before the fix but not after (``scriptable_before``/``scriptable_after``).

``--corpus`` runs the before-files only and checks the corpus itself: marker lines equal Dynamo's
break lines, every case has at least three inputs that are deterministic and FP32, together execute
every statement of the case, compiled outputs equal eager ones, and GM103/GM201 fixes have inputs that
raise and inputs that do not.

``--json`` prints ``{"torch", "python", "files": [{"original", "fixed", "error", "cases": [{"name",
"status", "declined", "unsafe", "codes", "breaks_before", "breaks_after", "break_lines_before",
"break_lines_after", "fullgraph_ok", "outputs_identical", "raise_preserved", "effects_identical",
"raised", "failures", "error"}]}], "skipped", "summary"}`` and nothing else on stdout.
Exit status: 0 all good, 1 any failure, 2 usage error.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import contextlib
import io
import json
import logging
import math
import os
import re
import subprocess
import sys
import traceback
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import dynamo_oracle as dyn  # noqa: E402  (shares case discovery, break recording, GB ids)
import program_effects  # noqa: E402  (what a case shows its user: stdout, logs, warnings)

MARK = re.compile(r"#\s*expect-(fix|decline):\s*(GM\d{3})\b\s*(.*)$")
MODULE_PREFIX = "_gm_fix_"
# Codes whose fixes lower a check into the graph: their cases have inputs on which the original
# raises (and the fixed code must raise too); no other case may raise.
RAISING_CODES = {"GM103", "GM201"}
# A printed tensor that requires grad shows its grad_fn, which `.clone()` (the defer fix) turns into
# CloneBackward0: the same values, another autograd node name. Side effects are compared without it.
GRAD_FN = re.compile(r"grad_fn=<\w+>")


# ---------------------------------------------------------------------------------------------
# Files, markers


def fixed_name(path):
    return path[:-3] + ".fixed.py"


def resolve(paths, pairs, corpus):
    """[(original, fixed or None)], [skipped originals]."""
    out, skipped, seen = [], [], set()

    def add(orig, fixed):
        key = os.path.realpath(orig)
        if key not in seen:
            seen.add(key)
            out.append((orig, fixed))

    for o, f in pairs or []:
        add(o, f)
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                for name in sorted(files):
                    if not name.endswith(".py") or name.endswith(".fixed.py"):
                        continue
                    orig = os.path.join(root, name)
                    if corpus:
                        add(orig, None)
                    elif os.path.isfile(fixed_name(orig)):
                        add(orig, fixed_name(orig))
                    else:
                        skipped.append(orig)
        elif p.endswith(".fixed.py"):
            add(p[: -len(".fixed.py")] + ".py", None if corpus else p)
        else:
            add(p, None if corpus else fixed_name(p))
    return out, skipped


def case_markers(path):
    """{case: [(line, kind, code, text)]} for the expect-fix / expect-decline comments."""
    import tokenize

    with open(path, encoding="utf-8") as f:
        blocks = dyn.case_blocks(f.read())
    found = {}
    with open(path, "rb") as f:
        for tok in tokenize.tokenize(f.readline):
            if tok.type != tokenize.COMMENT:
                continue
            m = MARK.search(tok.string)
            if not m:
                continue
            line = tok.start[0]
            for name, a, b in blocks:
                if a <= line <= b:
                    found.setdefault(name, []).append((line, m.group(1), m.group(2), m.group(3).strip()))
    return found


def case_nodes(path):
    """{case name: ast.dump without positions} of the top-level case definitions."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    return {n.name: ast.dump(n, include_attributes=False) for n in tree.body
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and (n.name.startswith("case_") or n.name.startswith("Case"))}


def statement_lines(path, name, first, last):
    """First lines of the statements inside the case and the functions of its block (docstrings,
    nested defs, `try:` headers left out): what the inputs must execute together."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    lines = set()
    funcs = []
    for node in tree.body:
        if not (first <= node.lineno <= last):
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            funcs.append(node)
        elif isinstance(node, ast.ClassDef):
            funcs.extend(n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "forward")
    for fn in funcs:
        body = fn.body
        if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]
        stack = list(body)
        while stack:
            s = stack.pop()
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if not isinstance(s, ast.Try):
                lines.add(s.lineno)
            for field in ("body", "orelse", "finalbody", "handlers"):
                for child in getattr(s, field, []) or []:
                    if isinstance(child, ast.ExceptHandler):
                        stack.extend(child.body)
                    elif isinstance(child, ast.stmt):
                        stack.append(child)
    return lines


# ---------------------------------------------------------------------------------------------
# Values


def same(a, b, torch):
    """(equal?, why not)."""
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
            return False, "tensor vs %s" % type(b if isinstance(a, torch.Tensor) else a).__name__
        if a.dtype != b.dtype:
            return False, "dtype %s vs %s" % (a.dtype, b.dtype)
        if a.shape != b.shape:
            return False, "shape %s vs %s" % (tuple(a.shape), tuple(b.shape))
        a, b = a.detach().cpu(), b.detach().cpu()
        if torch.equal(a, b):
            return True, ""
        if a.is_floating_point() or a.is_complex():
            na, nb = torch.isnan(a), torch.isnan(b)
            if torch.equal(na, nb) and torch.equal(a[~na], b[~nb]):
                return True, ""
        diff = (a.double() - b.double()).abs()
        return False, "values differ (max abs diff %s)" % diff[~torch.isnan(diff)].max().item() \
            if (~torch.isnan(diff)).any() else "values differ"
    if type(a) is not type(b):
        return False, "%s vs %s" % (type(a).__name__, type(b).__name__)
    if isinstance(a, (tuple, list)):
        if len(a) != len(b):
            return False, "length %d vs %d" % (len(a), len(b))
        for i, (x, y) in enumerate(zip(a, b)):
            ok, why = same(x, y, torch)
            if not ok:
                return False, "[%d] %s" % (i, why)
        return True, ""
    if isinstance(a, dict):
        if list(a) != list(b):
            return False, "keys differ"
        for k in a:
            ok, why = same(a[k], b[k], torch)
            if not ok:
                return False, "[%r] %s" % (k, why)
        return True, ""
    if isinstance(a, float) and math.isnan(a) and math.isnan(b):
        return True, ""
    try:
        return (a == b) is True or bool(a == b), "%r vs %r" % (a, b)
    except Exception:  # noqa: BLE001
        return a is b, "not comparable"


def fp32_issues(value, torch, where="input"):
    out = []
    if isinstance(value, torch.Tensor):
        if value.is_floating_point() and value.dtype != torch.float32:
            out.append("%s has dtype %s (inputs are FP32)" % (where, value.dtype))
    elif isinstance(value, (tuple, list)):
        for i, v in enumerate(value):
            out.extend(fp32_issues(v, torch, "%s[%d]" % (where, i)))
    return out


# ---------------------------------------------------------------------------------------------
# Running one file


class Effects(program_effects.Effects):
    """A fixture's events: the records of its module's loggers, the warnings issued from its file,
    its stdout (autograd's grad_fn names masked: a compiled graph names them differently)."""

    def __init__(self, path):
        self.path = os.path.realpath(path)
        super().__init__(lambda record: record.name.startswith(MODULE_PREFIX),
                         lambda filename: os.path.realpath(filename) == self.path)

    @contextlib.contextmanager
    def capture(self, out):
        events = []
        try:
            with super().capture(events):
                yield
        finally:
            out.extend(GRAD_FN.sub("grad_fn=<...>", e) for e in events)


def import_module(path, tag):
    import importlib.util

    name = MODULE_PREFIX + tag + "_" + re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def input_makers(torch, module, name, sig_fn):
    table = getattr(module, "INPUTS", None) or {}
    if name in table:
        makers = list(table[name])
    else:
        args = getattr(module, "ARGS", None) or {}
        makers = [args[name]] if name in args else [lambda: dyn.default_args(torch, sig_fn)]

    def wrap(mk):
        def make():
            torch.manual_seed(0)
            v = mk()
            return v if isinstance(v, tuple) else (v,)
        return make

    return [wrap(m) for m in makers], name in table


def build(torch, module, name):
    """(callable to run eagerly, signature function) for one case."""
    obj = getattr(module, name)
    if isinstance(obj, type):
        if not issubclass(obj, torch.nn.Module):
            raise TypeError("%s is not an nn.Module subclass" % name)
        torch.manual_seed(0)
        inst = obj().eval()
        return inst, inst.forward
    fn = dyn.unwrap(obj)
    return fn, fn


def declared_compile(path, name):
    """The compile options a case's own `@torch.compile(...)` decorator declares that change what
    Dynamo breaks on: {"fullgraph": True} (tools/dynamo_oracle.py's fullgraph_cases), else none."""
    with open(path, encoding="utf-8") as f:
        return {"fullgraph": True} if name in dyn.fullgraph_cases(f.read()) else {}


def short_exc(e):
    return "%s: %s" % (type(e).__name__, dyn.first_line(str(e))[:300])


def is_dynamo_error(torch, e):
    exc = torch._dynamo.exc
    kinds = tuple(k for k in (getattr(exc, "Unsupported", None), getattr(exc, "UserError", None),
                              getattr(exc, "TorchRuntimeError", None), getattr(exc, "InternalTorchDynamoError", None),
                              getattr(exc, "BackendCompilerFailed", None)) if k)
    return isinstance(e, kinds)


def raised_while_tracing(torch, e, original):
    """A fake-tensor op failed while Dynamo traced (TorchRuntimeError, itself a RuntimeError) on an
    input on which the original, run eagerly, raised a plain RuntimeError: the same error, found at
    trace time because shapes are static there (a `.reshape(())` of a many-element condition)."""
    kind = getattr(torch._dynamo.exc, "TorchRuntimeError", None)
    return (kind is not None and isinstance(e, kind) and original[0] == "raise"
            and isinstance(original[1], RuntimeError) and not is_dynamo_error(torch, original[1]))


def call(fn, args, effects, capture_into):
    """('ok', value) or ('raise', exception)."""
    try:
        with effects.capture(capture_into):
            return "ok", fn(*args)
    except Exception as e:  # noqa: BLE001
        return "raise", e


class Recorder(dyn.Recorder):
    """tools/dynamo_oracle.py's recorder, plus the live Python stack of every break: a break inside a
    library frame that Dynamo compiles on its own (e.g. inside `Logger.warning` when an argument is a
    tensor) has no fixture frame in its user stack; the live stack still holds the fixture frame
    that made the call, and the break is attributed to that line."""

    def __init__(self, torch_mod):
        super().__init__(torch_mod)
        from torch._dynamo import symbolic_convert as sc

        recorder = self
        # a method of InstructionTranslatorBase, or (torch 2.8) a function of symbolic_convert, as
        # dyn.Recorder hooks it
        owner = sc.InstructionTranslatorBase if hasattr(sc.InstructionTranslatorBase, "log_graph_break") else sc
        inner = owner.log_graph_break

        def log_graph_break(*args, **kwargs):
            # the signature differs between torch versions (see dyn.Recorder): pass it through as it came
            before = len(recorder.events) if recorder.events is not None else None
            out = inner(*args, **kwargs)
            if before is not None and len(recorder.events) > before:
                live = []
                f = sys._getframe(1)
                while f is not None:
                    live.append((os.path.realpath(f.f_code.co_filename), f.f_lineno, f.f_code.co_name))
                    f = f.f_back
                frames, r, e = recorder.events[-1]
                recorder.events[-1] = (frames, r, e, live)
            return out

        owner.log_graph_break = log_graph_break


def break_lines(recorder, path):
    real = os.path.realpath(path)
    lines, reasons = set(), {}
    for event in recorder.events or []:
        frames, reason, exc = event[:3]
        inside = [f for f in frames if f[0] == real]
        if not inside and len(event) > 3:
            inside = [f for f in event[3] if f[0] == real][:1]
        line = inside[-1][1] if inside else None
        if line not in lines:
            lines.add(line)
            reasons[line] = dyn.summarize_reason(reason, exc)
    return lines, reasons


def run_compiled(torch, recorder, target, makers, skip, path, **compile_kw):
    """Compile once (backend "eager"), run every input; (results per input, break lines and
    reasons over the inputs not in skip)."""
    torch._dynamo.reset()
    compiled = torch.compile(target, backend="eager", **compile_kw)
    results, events = [None] * len(makers), []
    lines, reasons = set(), {}
    # Inputs on which the original raises run last: their breaks are not counted, and running them
    # first would hide (through Dynamo's cache) the breaks of the other inputs.
    order = [i for i in range(len(makers)) if i not in skip] + sorted(skip)
    for i in order:
        args = makers[i]()
        effects = []
        recorder.events = []
        try:
            results[i] = call(compiled, args, EFFECTS[path], effects) + (effects,)
        finally:
            if i not in skip:
                events.extend(recorder.events)
            recorder.events = events
            lines, reasons = break_lines(recorder, path)
            recorder.events = None
    torch._dynamo.reset()
    return results, lines, reasons


EFFECTS = {}


def run_pair(orig, fixed, corpus):
    import torch
    import torch._dynamo

    recorder = Recorder(torch)
    entry = {"original": orig, "fixed": fixed, "error": None, "cases": []}
    try:
        with open(orig, encoding="utf-8") as f:
            source = f.read()
        blocks = dyn.case_blocks(source)
        marks = case_markers(orig)
        EFFECTS[orig] = Effects(orig)
        omod = import_module(orig, "orig")
        if fixed:
            if not os.path.isfile(fixed):
                raise FileNotFoundError("no fixed file " + fixed)
            onodes, fnodes = case_nodes(orig), case_nodes(fixed)
    except Exception as e:  # noqa: BLE001
        entry["error"] = short_exc(e)
        traceback.print_exc(file=sys.stderr)
        return entry

    # Phase 1: the original, before anything of the fixed file is imported.
    orig_runs = {}
    for name, first, last in blocks:
        c = {"name": name, "codes": sorted({m[2] for m in marks.get(name, [])}),
             "declined": any(m[1] == "decline" for m in marks.get(name, [])),
             "unsafe": any(m[1] == "fix" and "unsafe" in m[3].split() for m in marks.get(name, [])),
             "breaks_before": None, "breaks_after": None, "break_lines_before": [], "break_lines_after": [],
             "fullgraph_ok": None, "outputs_identical": None, "raise_preserved": None,
             "effects_identical": None, "raised": [], "failures": [], "error": None, "status": None}
        entry["cases"].append(c)
        try:
            target, sig = build(torch, omod, name)
            makers, from_inputs = input_makers(torch, omod, name, sig)
        except Exception as e:  # noqa: BLE001
            c["error"] = "setup (original): " + short_exc(e)
            continue
        eager = []
        executed = set()
        real = os.path.realpath(orig)

        def tracer(frame, event, arg):
            if frame.f_code.co_filename and os.path.realpath(frame.f_code.co_filename) == real:
                if event == "line":
                    executed.add(frame.f_lineno)
                return tracer
            return None

        try:
            for make in makers:
                args = make()
                effects = []
                sys.settrace(tracer)
                try:
                    res = call(target, args, EFFECTS[orig], effects)
                finally:
                    sys.settrace(None)
                eager.append(res + (effects,))
        except Exception as e:  # noqa: BLE001
            c["error"] = "inputs: " + short_exc(e)
            continue
        raising = {i for i, r in enumerate(eager) if r[0] == "raise"}
        try:
            comp, lines, reasons = run_compiled(torch, recorder, target, makers, raising, orig,
                                                **declared_compile(orig, name))
        except Exception as e:  # noqa: BLE001
            c["error"] = "compile (original): " + short_exc(e)
            traceback.print_exc(file=sys.stderr)
            continue
        c["breaks_before"] = len(lines)
        c["break_lines_before"] = sorted(lines, key=lambda l: (l is None, l or 0))
        c["break_reasons_before"] = {str(k): v for k, v in reasons.items()}
        orig_runs[name] = (makers, eager, raising)
        if corpus:
            check_corpus_case(torch, c, orig, marks.get(name, []), first, last, makers, eager, comp,
                              raising, executed, from_inputs, lines)

    if corpus:
        for c in entry["cases"]:
            finish(c, corpus=True)
        return entry

    # Phase 2: the fixed file.
    try:
        EFFECTS[fixed] = Effects(fixed)
        fmod = import_module(fixed, "fixed")
    except Exception as e:  # noqa: BLE001
        entry["error"] = "fixed file: " + short_exc(e)
        traceback.print_exc(file=sys.stderr)
        return entry
    for c in entry["cases"]:
        name = c["name"]
        if c["error"] or name not in orig_runs:
            finish(c)
            continue
        makers, eager, raising = orig_runs[name]
        if name not in fnodes:
            c["error"] = "case missing in the fixed file"
            finish(c)
            continue
        try:
            ftarget, _ = build(torch, fmod, name)
            fixed_eager = []
            for make in makers:
                effects = []
                fixed_eager.append(call(ftarget, make(), EFFECTS[fixed], effects) + (effects,))
            # compiled as its decorator says: GM301's fix turns fullgraph=True on there
            comp, lines, reasons = run_compiled(torch, recorder, ftarget, makers, raising, fixed,
                                                **declared_compile(fixed, name))
        except Exception as e:  # noqa: BLE001
            c["error"] = "fixed: " + short_exc(e)
            traceback.print_exc(file=sys.stderr)
            finish(c)
            continue
        c["breaks_after"] = len(lines)
        c["break_lines_after"] = sorted(lines, key=lambda l: (l is None, l or 0))
        c["break_reasons_after"] = {str(k): v for k, v in reasons.items()}
        full = None
        if not lines:
            try:
                full, _, _ = run_compiled(torch, recorder, ftarget, makers, raising, fixed, fullgraph=True)
                c["fullgraph_ok"] = True
            except Exception as e:  # noqa: BLE001
                c["fullgraph_ok"] = False
                c["failures"].append("fullgraph compile failed: " + short_exc(e))
            if full:
                for i, r in enumerate(full):
                    if r[0] == "raise" and raised_while_tracing(torch, r[1], eager[i]):
                        # the input's own error, found while tracing (shapes are static there): the
                        # original raised RuntimeError on it, as bool() of a tensor of many elements does
                        c.setdefault("raised_while_tracing", []).append(i)
                        continue
                    if r[0] == "raise" and is_dynamo_error(torch, r[1]):
                        c["fullgraph_ok"] = False
                        c["failures"].append("fullgraph run on input %d failed under Dynamo: %s"
                                             % (i, short_exc(r[1])))
                        full = None
                        break
        compare_runs(torch, c, eager, fixed_eager, comp, full)
        if c["declined"] and onodes.get(name) != fnodes.get(name):
            c["failures"].append("marked declined but the fix rewrote the case")
        check_scriptable(torch, c, omod, fmod, name)
        finish(c)
    return entry


def scripts(torch, module, name):
    """None when torch.jit.script of the case's module works, else why not."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch.jit.script's own deprecation warning
            torch.jit.script(getattr(module, name)())
        return None
    except Exception as e:  # noqa: BLE001 - the reason is the result
        return short_exc(e)


def check_scriptable(torch, c, omod, fmod, name):
    """A fix keeps a module TorchScript compiles today scriptable (docs/rules/GM102.md, "TorchScript")."""
    # where the project uses TorchScript (here: the file names torch.jit), as the fixes decide it
    if not isinstance(getattr(omod, name, None), type):
        return
    with open(omod.__file__, encoding="utf-8") as f:
        if "torch.jit." not in f.read():
            return
    before = scripts(torch, omod, name)
    c["scriptable_before"] = before is None
    if before is not None:
        return
    after = scripts(torch, fmod, name)
    c["scriptable_after"] = after is None
    if after is not None:
        c["failures"].append("torch.jit.script works before the fix, not after: " + after)


def compare_runs(torch, c, eager, fixed_eager, comp, full):
    runs = [("fixed eager", fixed_eager), ("fixed compiled", comp)] + ([("fixed fullgraph", full)] if full else [])
    outputs_ok = raise_ok = effects_ok = True
    for i, (kind, value, effects) in enumerate(eager):
        if kind == "raise":
            raised = {"input": i, "original": type(value).__name__}
            for label, res in runs:
                raised[label.split()[1]] = type(res[i][1]).__name__ if res[i][0] == "raise" else None
                if res[i][0] != "raise":
                    raise_ok = False
                    c["failures"].append("input %d: the original raises %s, the %s run does not"
                                         % (i, type(value).__name__, label))
            c["raised"].append(raised)
            continue
        for label, res in runs:
            if res[i][0] == "raise":
                outputs_ok = False
                c["failures"].append("input %d: the %s run raises %s" % (i, label, short_exc(res[i][1])))
                continue
            ok, why = same(value, res[i][1], torch)
            if not ok:
                outputs_ok = False
                c["failures"].append("input %d: original eager vs %s: %s" % (i, label, why))
    for i, (_, _, effects) in enumerate(eager):
        for label, res in runs:
            if res[i][2] != effects and (label == "fixed eager" or not c["unsafe"]):
                effects_ok = False
                c["failures"].append("input %d: side effects differ (original eager vs %s): %r vs %r"
                                     % (i, label, effects[:3], res[i][2][:3]))
                break
    c["outputs_identical"] = outputs_ok
    c["raise_preserved"] = raise_ok if c["raised"] else None
    c["effects_identical"] = effects_ok


def check_corpus_case(torch, c, path, marks, first, last, makers, eager, comp, raising, executed,
                      from_inputs, lines):
    f = c["failures"]
    if not from_inputs:
        f.append("no INPUTS entry")
    if len(makers) < 3:
        f.append("only %d input tuple(s) (at least 3)" % len(makers))
    if not marks:
        f.append("no expect-fix / expect-decline marker")
    marked = {m[0] for m in marks}
    for line in sorted(marked - lines):
        f.append("line %d: marker but Dynamo does not break here" % line)
    for line in sorted(lines - marked, key=lambda l: l or 0):
        f.append("line %s: Dynamo breaks here (%s) but there is no marker"
                 % (line, c["break_reasons_before"].get(str(line), "?")))
    for i, make in enumerate(makers):
        a, b = make(), make()
        ok, why = same(a, b, torch)
        if not ok:
            f.append("input %d is not deterministic: %s" % (i, why))
        f.extend("input %d: %s" % (i, s) for s in fp32_issues(a, torch))
    missing = sorted(statement_lines(path, c["name"], first, last) - executed)
    if missing:
        f.append("statements never executed by the inputs: lines %s" % missing)
    for i, (e, r) in enumerate(zip(eager, comp)):
        if e[0] == "raise":
            c["raised"].append({"input": i, "original": type(e[1]).__name__})
            if r[0] != "raise":
                f.append("input %d: eager raises, compiled original does not" % i)
        elif r[0] == "raise":
            f.append("input %d: compiled original raises %s" % (i, short_exc(r[1])))
        else:
            ok, why = same(e[1], r[1], torch)
            if not ok:
                f.append("input %d: compiled original differs from eager: %s" % (i, why))
    checks = RAISING_CODES & set(c["codes"])
    if checks and not c["declined"]:
        if not raising:
            f.append("%s case without an input on which it raises" % "/".join(sorted(checks)))
        if len(raising) == len(eager):
            f.append("%s case raises on every input" % "/".join(sorted(checks)))
    elif raising and not checks:
        f.append("raises on inputs %s (only GM103 and GM201 check cases may raise)" % sorted(raising))


def finish(c, corpus=False):
    if not corpus and not c["error"]:
        if not c["breaks_before"]:
            c["failures"].append("the original does not break (not a useful case)")
        if c["declined"]:
            if c["breaks_after"] == 0:
                c["failures"].append("marked declined but no break is left")
        elif c["breaks_after"]:
            c["failures"].append("%d break(s) left at line(s) %s" % (c["breaks_after"], c["break_lines_after"]))
    if c["error"]:
        c["status"] = "error"
    elif c["failures"]:
        c["status"] = "FAIL"
    elif corpus:
        c["status"] = "ok"
    else:
        c["status"] = "declined" if c["declined"] else "fixed"


# ---------------------------------------------------------------------------------------------
# Driver


def worker(orig, fixed, corpus):
    import torch

    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            entry = run_pair(orig, fixed, corpus)
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
    json.dump({"torch": torch.__version__, "entry": entry}, sys.stdout)
    sys.stdout.write("\n")


def spawn(orig, fixed, corpus, verbose):
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", orig, fixed or ""] + (["--corpus"] if corpus else [])
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=None if verbose else subprocess.PIPE, text=True)
    try:
        return json.loads(proc.stdout.strip().splitlines()[-1])
    except Exception:  # noqa: BLE001
        tail = (proc.stderr or "").strip().splitlines()[-5:]
        return {"torch": None, "entry": {"original": orig, "fixed": fixed, "cases": [],
                                         "error": "worker failed (exit %s): %s" % (proc.returncode, " | ".join(tail))}}


def summarize(files):
    s = {"files": len(files), "file_errors": 0, "cases": 0, "fixed": 0, "declined": 0, "ok": 0,
         "failed": 0, "errors": 0, "breaks_before": 0, "breaks_after": 0}
    for f in files:
        if f.get("error"):
            s["file_errors"] += 1
        for c in f["cases"]:
            s["cases"] += 1
            key = {"fixed": "fixed", "declined": "declined", "ok": "ok", "FAIL": "failed", "error": "errors"}[c["status"]]
            s[key] += 1
            s["breaks_before"] += c["breaks_before"] or 0
            s["breaks_after"] += c["breaks_after"] or 0
    s["breaks_removed"] = s["breaks_before"] - s["breaks_after"]
    return s


def print_report(report, out, corpus):
    out.write("torch %s, python %s%s\n" % (report["torch"], report["python"], " (corpus check)" if corpus else ""))
    for f in report["files"]:
        out.write("\n== %s%s\n" % (f["original"], "" if corpus else " -> %s" % f["fixed"]))
        if f.get("error"):
            out.write("  ! file error: %s\n" % f["error"])
        for c in f["cases"]:
            if corpus:
                head = "%s: %s, %s break line(s) %s" % (c["name"], c["status"], c["breaks_before"],
                                                         c["break_lines_before"])
            else:
                head = "%s: %s, breaks %s -> %s%s%s" % (
                    c["name"], c["status"], c["breaks_before"], c["breaks_after"],
                    ", fullgraph ok" if c["fullgraph_ok"] else (", fullgraph FAILED" if c["fullgraph_ok"] is False else ""),
                    ", raises %s" % ", ".join("%s->%s" % (r["original"], r.get("eager")) for r in c["raised"])
                    if c["raised"] else "") + (", raised while tracing on input(s) %s" % c["raised_while_tracing"]
                                               if c.get("raised_while_tracing") else "")
            out.write("  %s%s\n" % (head, " [unsafe]" if c["unsafe"] else ""))
            if c["error"]:
                out.write("    ! error: %s\n" % c["error"])
            for msg in c["failures"]:
                out.write("    - %s\n" % msg)
    for p in report.get("skipped", []):
        out.write("\n(skipped, no fixed file: %s)\n" % p)
    s = report["summary"]
    if corpus:
        out.write("\n%d file(s), %d case(s): %d ok, %d failed, %d error(s); %d break line(s)\n"
                  % (s["files"], s["cases"], s["ok"], s["failed"], s["errors"], s["breaks_before"]))
    else:
        out.write("\n%d file(s), %d case(s): %d fixed, %d declined, %d failed, %d error(s); breaks %d -> %d "
                  "(%d removed)\n" % (s["files"], s["cases"], s["fixed"], s["declined"], s["failed"], s["errors"],
                                      s["breaks_before"], s["breaks_after"], s["breaks_removed"]))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    ap.add_argument("--corpus", action="store_true", help="check the before-files only")
    ap.add_argument("--pair", nargs=2, action="append", metavar=("ORIG", "FIXED"), help="an explicit pair")
    ap.add_argument("-j", "--jobs", type=int, default=min(2, os.cpu_count() or 1), help="files in parallel")
    ap.add_argument("-v", "--verbose", action="store_true", help="show the workers' stderr")
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    ap.add_argument("paths", nargs="*", metavar="FILE_OR_DIR")
    ns = ap.parse_args(argv)

    if ns.worker:
        worker(ns.worker[0], ns.worker[1] or None, ns.corpus)
        return 0
    if not ns.paths and not ns.pair:
        ap.error("name at least one file, folder or --pair")
    missing = [p for p in ns.paths + [x for pr in ns.pair or [] for x in pr] if not os.path.exists(p)]
    if missing:
        ap.error("no such file or folder: " + ", ".join(missing))
    pairs, skipped = resolve(ns.paths, ns.pair, ns.corpus)
    with concurrent.futures.ThreadPoolExecutor(max(1, ns.jobs)) as pool:
        results = list(pool.map(lambda p: spawn(p[0], p[1], ns.corpus, ns.verbose), pairs))
    torch_version = next((r["torch"] for r in results if r["torch"]), None)
    report = {"torch": torch_version, "python": sys.version.split()[0],
              "files": [r["entry"] for r in results], "skipped": skipped}
    report["summary"] = summarize(report["files"])
    if ns.json:
        json.dump(report, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print_report(report, sys.stdout, ns.corpus)
    s = report["summary"]
    return 1 if (s["failed"] or s["errors"] or s["file_errors"]) else 0


if __name__ == "__main__":
    sys.exit(main())
