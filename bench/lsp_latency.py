#!/usr/bin/env python3
"""LSP latency benchmark (issue 6): GraphMend's language server beside `ruff server` and
`pyright-langserver`, driven over stdio by the same hand-written JSON-RPC client.

For each server, in one run:

1. ``initialize`` (client declares ``publishDiagnostics.versionSupport`` and *no*
   ``textDocument.diagnostic``, so all three servers push diagnostics), ``initialized``.
2. For each benchmark file (``_pydecimal.py`` of CPython 3.13 and the longest ``modeling_*.py``
   of transformers, both copied into a temporary workspace root), one at a time:
   ``didOpen`` → the first ``publishDiagnostics`` for it (open→diag); then WARMUP warm-up and
   EDITS measured edits, each timed from the ``didChange`` to the ``publishDiagnostics`` whose
   ``version`` equals the edited version (servers that omit ``version`` are timed to the first
   publish for the URI after the change, and the report says so); then ``didClose``.
   An edit is a keystroke in a function body in the middle of the file: insert ``x`` at the end
   of the first token of the line, then delete it, alternating. Incremental change events with a
   range when the server declared incremental sync, the full text otherwise. The next edit is
   sent after the previous one's diagnostics arrived (plus GAP_MS).
3. Open the 20 largest ``*.py`` files of transformers (copied outside the workspace root),
   wait until each has diagnostics and the server is quiet, and read the resident memory:
   ``VmRSS`` of the server process and all its descendants, from ``/proc/PID/status``.
4. ``shutdown``/``exit``; the process (group) is killed if it does not exit.

Every wait has a timeout; a timed-out edit is counted, not hidden. GraphMend is run with its
shipped defaults (analysis starts at once after a change, edits arriving meanwhile coalesce;
``graphmend lsp --debounce-ms N`` would delay it) and the JVM options of --java-opts. This text used
to say: the analysis debounce (150 ms after the last change) cannot be configured from
the command line, ``initializationOptions`` or a system property, so only the default
configuration is measured; the table also shows the analysis time GraphMend itself reports
(``$/logTrace`` with ``$/setTrace verbose``), which is the part of the latency that is not debounce.

Usage: python3 bench/lsp_latency.py [--servers graphmend,ruff,pyright] [--warmup 30]
       [--edits 200] [--out FILE]   (bench/lsp-latency.sh sets the paths up).
Measurements are made here and printed; nothing is asserted.
"""

import argparse
import asyncio
import datetime
import json
import os
import re
import shutil
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PYDECIMAL = Path("/root/.pyenv/versions/3.13.0/lib/python3.13/_pydecimal.py")
TRANSFORMERS_CANDIDATES = [
    Path("/root/.cache/graphmend/eval-env/lib/python3.11/site-packages/transformers"),
    Path("/root/.cache/graphmend/bench-env/lib/python3.11/site-packages/transformers"),
]


JAVA_OPTS_NOTE = ["?"]


def now():
    return time.perf_counter()


def uri_of(p: Path) -> str:
    return p.resolve().as_uri()


def line_count(p: Path) -> int:
    with open(p, "rb") as f:
        return sum(1 for _ in f)


# ------------------------------------------------------------------ JSON-RPC client


class Server:
    def __init__(self, name, argv, log_path, env=None):
        self.name = name
        self.argv = argv
        self.log_path = log_path
        self.env = env
        self.proc = None
        self.next_id = 0
        self.pending = {}  # id -> future
        self.publishes = []  # (t, uri, version, count)
        self.waiters = []  # (predicate, future)
        self.log_messages = []
        self.traces = []  # (t, message, verbose)
        self.caps = {}
        self.reader_task = None
        self.closed = asyncio.Event()
        self.unanswered_requests = {}

    async def start(self):
        self.log = open(self.log_path, "wb")
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=self.log, env=self.env, start_new_session=True, limit=1 << 24)
        self.reader_task = asyncio.create_task(self._read_loop())

    async def _read_loop(self):
        out = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = await out.readline()
                    if not line:
                        return
                    line = line.strip()
                    if not line:
                        break
                    k, _, v = line.decode("ascii", "replace").partition(":")
                    if k.strip().lower() == "content-length":
                        length = int(v.strip())
                if length is None:
                    continue
                body = await out.readexactly(length)
                t = now()
                self._dispatch(json.loads(body), t)
        except (asyncio.IncompleteReadError, ConnectionError):
            return
        finally:
            self.closed.set()
            for fut in self.pending.values():
                if not fut.done():
                    fut.set_exception(EOFError(f"{self.name} closed its output"))
            for _, fut in self.waiters:
                if not fut.done():
                    fut.set_exception(EOFError(f"{self.name} closed its output"))

    def _dispatch(self, msg, t):
        if "method" in msg and "id" in msg:  # a request from the server
            asyncio.create_task(self._answer(msg))
        elif "method" in msg:
            m = msg["method"]
            p = msg.get("params") or {}
            if m == "textDocument/publishDiagnostics":
                rec = (t, p.get("uri"), p.get("version"), len(p.get("diagnostics") or []))
                self.publishes.append(rec)
                keep = []
                for pred, fut in self.waiters:
                    if not fut.done() and pred(rec):
                        fut.set_result(rec)
                    elif not fut.done():
                        keep.append((pred, fut))
                self.waiters = keep
            elif m == "$/logTrace":
                self.traces.append((t, p.get("message", ""), p.get("verbose", "") or ""))
            elif m == "window/logMessage":
                self.log_messages.append((t, p.get("message", "")))
        else:  # a response
            fut = self.pending.pop(msg.get("id"), None)
            if fut is not None and not fut.done():
                if "error" in msg:
                    fut.set_exception(RuntimeError(f"{self.name}: {msg['error']}"))
                else:
                    fut.set_result(msg.get("result"))

    async def _answer(self, msg):
        m = msg["method"]
        p = msg.get("params") or {}
        if m == "workspace/configuration":
            result = [None if it.get("section") not in (None, "graphmend") else {}
                      for it in p.get("items", [])]
        elif m == "workspace/workspaceFolders":
            result = self.folders
        else:  # client/registerCapability, window/workDoneProgress/create, ...
            result = None
        await self._send({"jsonrpc": "2.0", "id": msg["id"], "result": result})

    async def _send(self, obj):
        body = json.dumps(obj, separators=(",", ":")).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        await self.proc.stdin.drain()

    async def request(self, method, params, timeout):
        self.next_id += 1
        i = self.next_id
        fut = asyncio.get_running_loop().create_future()
        self.pending[i] = fut
        await self._send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        return await asyncio.wait_for(fut, timeout)

    async def notify(self, method, params):
        """Sends a notification; returns when it was sent (taken before the write: taken after the
        drain, it came after the answer's arrival when the loop read the answer during the drain)."""
        t = now()
        await self._send({"jsonrpc": "2.0", "method": method, "params": params})
        return t

    def expect(self, pred):
        """A future for the first publish (from now on) that satisfies pred."""
        fut = asyncio.get_running_loop().create_future()
        self.waiters.append((pred, fut))
        return fut

    async def stop(self):
        try:
            await self.request("shutdown", None, 10)
            await self.notify("exit", None)
            await asyncio.wait_for(self.proc.wait(), 10)
        except Exception:
            pass
        if self.proc.returncode is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except Exception:
                pass
        if self.reader_task:
            self.reader_task.cancel()
        self.log.close()

    # ---- resident memory of the process tree

    def tree_pids(self):
        children = {}
        for d in Path("/proc").iterdir():
            if not d.name.isdigit():
                continue
            try:
                stat = (d / "stat").read_text()
                ppid = int(stat[stat.rindex(")") + 2:].split()[1])
                children.setdefault(ppid, []).append(int(d.name))
            except (OSError, ValueError):
                continue
        out, todo = [], [self.proc.pid]
        while todo:
            p = todo.pop()
            out.append(p)
            todo.extend(children.get(p, []))
        return out

    def rss_kb(self, field="VmRSS"):
        total = 0
        for pid in self.tree_pids():
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith(field + ":"):
                        total += int(line.split()[1])
            except OSError:
                pass
        return total


# ------------------------------------------------------------------ the benchmark


def client_capabilities():
    return {
        "general": {"positionEncodings": ["utf-16"]},
        "textDocument": {
            "synchronization": {"dynamicRegistration": False, "didSave": False},
            "publishDiagnostics": {"relatedInformation": True, "versionSupport": True,
                                   "codeDescriptionSupport": True, "dataSupport": True},
            # no "diagnostic": every server pushes
        },
        "workspace": {"configuration": True, "workspaceFolders": True},
        "window": {"workDoneProgress": False},
    }


def sync_kind(caps):
    s = caps.get("textDocumentSync")
    if isinstance(s, int):
        return s
    if isinstance(s, dict):
        return s.get("change", 0) or 0
    return 0


def pick_edit_line(lines):
    """A line in a function body near the middle of the file: indented, starting with an
    identifier, inside a def (the nearest less-indented 'def' above it), ASCII only."""
    mid = len(lines) // 2
    order = sorted(range(len(lines)), key=lambda i: abs(i - mid))
    for i in order:
        ln = lines[i]
        m = re.match(r"^( {8,})([A-Za-z_][A-Za-z_0-9]*) = ", ln)
        if not m or not ln.isascii():
            continue
        ind = len(m.group(1))
        for j in range(i - 1, max(-1, i - 200), -1):
            lj = lines[j]
            if not lj.strip():
                continue
            jind = len(lj) - len(lj.lstrip())
            if jind < ind:
                if re.match(r"^\s*(async\s+)?def ", lj):
                    return i, ind + len(m.group(2))
                break
    raise SystemExit("no edit line found")


PASTE = [
    "    def _bench_pasted(self, hidden_states, mask=None):",
    "        \"\"\"A method pasted by the benchmark (then deleted).\"\"\"",
    "        scores = hidden_states @ hidden_states.transpose(-1, -2)",
    "        if mask is not None:",
    "            scores = scores + mask",
    "        probs = scores.softmax(-1)",
    "        out = probs @ hidden_states",
    "        if out.abs().max() > 1e4:",
    "            out = out.clamp(-1e4, 1e4)",
    "        print(\"pasted\", out.shape)",
    "        return out",
    "",
]


def mixed_edits(lines, line, col):
    """The mixed edit script (issue 17), as (kind, (l0, c0), (l1, c1), text) changes in order; each
    episode leaves the text as it was: a keystroke (``type``: insert ``x``, delete it); Enter at the
    end of the edit line and its removal (``enter``); a statement typed char by char on a new line
    (``statement``) and the line deleted (``delete-line``); a digit of a literal in an ``if``
    changed and changed back (``literal``); a 12-line method pasted into a class (``paste``) and
    deleted (``unpaste``). Lines are tracked in ``lines`` (ASCII, so columns are UTF-16 too)."""
    literal = None
    mid = len(lines) // 2
    for i in sorted(range(len(lines)), key=lambda i: abs(i - mid)):
        m = re.match(r"^\s+(el)?if .*?(?<![\w.])(\d)", lines[i])
        if m and lines[i].isascii():
            literal = (i, m.start(2))
            break
    method = None
    for i in sorted(range(len(lines)), key=lambda i: abs(i - mid)):
        if re.match(r"^    def \w+\(self", lines[i]):
            method = i
            break
    indent = re.match(r"^\s*", lines[line]).group(0)
    while True:
        yield "type", (line, col), (line, col), "x"
        yield "type", (line, col), (line, col + 1), ""
        end = len(lines[line])
        yield "enter", (line, end), (line, end), "\n" + indent
        yield "enter", (line, end), (line + 1, len(indent)), ""
        yield "enter", (line, end), (line, end), "\n" + indent
        typed = "y = x + 1"
        for k, ch in enumerate(typed):
            yield "statement", (line + 1, len(indent) + k), (line + 1, len(indent) + k), ch
        yield "delete-line", (line, end), (line + 1, len(indent) + len(typed)), ""
        if literal:
            li, lc = literal
            old = lines[li][lc]
            yield "literal", (li, lc), (li, lc + 1), "7" if old != "7" else "3"
            yield "literal", (li, lc), (li, lc + 1), old
        if method is not None:
            yield "paste", (method, 0), (method, 0), "\n".join(PASTE) + "\n"
            yield "unpaste", (method, 0), (method + len(PASTE), 0), ""


def apply_change(lines, start, end, text):
    """Applies one range change to the list of lines, in place."""
    (l0, c0), (l1, c1) = start, end
    head, tail = lines[l0][:c0], lines[l1][c1:]
    lines[l0:l1 + 1] = (head + text + tail).split("\n")


def pct(xs, q):
    if not xs:
        return float("nan")
    s = sorted(xs)
    k = (len(s) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


async def open_and_wait(srv, path, text, timeout):
    u = uri_of(path)
    fut = srv.expect(lambda r: r[1] == u)
    t0 = await srv.notify("textDocument/didOpen", {"textDocument": {
        "uri": u, "languageId": "python", "version": 1, "text": text}})
    try:
        rec = await asyncio.wait_for(fut, timeout)
        return (rec[0] - t0) * 1000, rec
    except asyncio.TimeoutError:
        return None, None


async def bench_file(srv, path, args, res):
    warmup, edits = args.warmup, args.edits
    if srv.name in args.slow.split(","):
        warmup, edits = args.slow_warmup, args.slow_edits
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    u = uri_of(path)
    ms, rec = await open_and_wait(srv, path, text, args.open_timeout)
    res["open_ms"] = ms
    res["open_diags"] = rec[3] if rec else None
    await asyncio.sleep(0.05)  # the trace follows the diagnostics
    for _, m, verbose in srv.traces:
        if re.match(r"analysed " + re.escape(u) + r" v1: ", m):
            res["open_trace"] = m + "; " + verbose.split("; ", 1)[-1]
            break
    incremental = sync_kind(srv.caps) == 2
    res["sync"] = "incremental" if incremental else "full"
    line, col = pick_edit_line(lines)
    res["edit_at"] = f"{line + 1}:{col + 1}"
    version = 1
    lat, timeouts, unversioned = [], 0, 0
    by_kind = {}
    edits_seen = []  # (version, kind, ms) of each measured edit, to line up with the server's traces
    trace_from = len(srv.traces)
    script = mixed_edits(lines, line, col) if args.script == "mixed" else None
    inserted = False
    for k in range(warmup + edits):
        await asyncio.sleep(args.gap_ms / 1000)
        version += 1
        if script is not None:
            kind, start, end, text_in = next(script)
            change = {"range": {"start": {"line": start[0], "character": start[1]},
                                "end": {"line": end[0], "character": end[1]}}, "text": text_in}
            apply_change(lines, start, end, text_in)
        elif not inserted:
            kind = "type"
            change = {"range": {"start": {"line": line, "character": col},
                                "end": {"line": line, "character": col}}, "text": "x"}
            lines[line] = lines[line][:col] + "x" + lines[line][col:]
        else:
            kind = "type"
            change = {"range": {"start": {"line": line, "character": col},
                                "end": {"line": line, "character": col + 1}}, "text": ""}
            lines[line] = lines[line][:col] + lines[line][col + 1:]
        inserted = not inserted
        if not incremental:
            change = {"text": "\n".join(lines)}
        v = version
        fut = srv.expect(lambda r, v=v: r[1] == u and (r[2] == v or r[2] is None))
        if k == warmup:
            trace_from = len(srv.traces)
        t0 = await srv.notify("textDocument/didChange", {
            "textDocument": {"uri": u, "version": v}, "contentChanges": [change]})
        try:
            rec = await asyncio.wait_for(fut, args.edit_timeout)
        except asyncio.TimeoutError:
            if k >= warmup:
                timeouts += 1
            continue
        if k >= warmup:
            lat.append((rec[0] - t0) * 1000)
            by_kind.setdefault(kind, []).append((rec[0] - t0) * 1000)
            edits_seen.append((v, kind, (rec[0] - t0) * 1000))
            if rec[2] is None:
                unversioned += 1
    res["lat"] = lat
    res["by_kind"] = by_kind
    res["edits"] = edits_seen
    res["timeouts"] = timeouts
    res["unversioned"] = unversioned
    # GraphMend's own analysis timings of this file's measured versions ($/logTrace)
    an = []
    phases = {}
    allocations = {}  # MB the server says each version allocated, by where (change, analysis)
    res["traces"] = []  # the server's own line per measured version, kept in the JSON for a closer look
    for _, m, verbose in srv.traces[trace_from:]:
        mm = re.match(r"analysed (\S+) v\d+: \d+ diagnostics in (\d+) ms", m)
        if mm and mm.group(1) == u:
            an.append(int(mm.group(2)))
            res["traces"].append(m + "; " + verbose)
            timings, _, allocated = (verbose.split("ms:", 1)[-1] if "ms:" in verbose else "").partition("; MB allocated:")
            for name, ms in re.findall(r"([a-z][a-z ]*?) ([0-9.]+)(?:,|$)", timings):
                phases.setdefault(name.strip(), []).append(float(ms))
            for name, mb in re.findall(r"([a-z][a-z ]*?) ([0-9.]+)(?:,|$)", allocated):
                allocations.setdefault(name.strip(), []).append(float(mb))
    res["analysis_ms"] = an
    res["analysis_phases"] = phases
    res["allocated_mb"] = allocations
    await srv.notify("textDocument/didClose", {"textDocument": {"uri": u}})
    await asyncio.sleep(0.5)


async def quiet(srv, seconds, limit):
    """Waits until no publish arrived for `seconds` (at most `limit` seconds)."""
    start = now()
    while now() - start < limit:
        last = srv.publishes[-1][0] if srv.publishes else start
        if now() - max(last, start) >= seconds:
            return True
        await asyncio.sleep(0.2)
    return False


async def run_server(name, argv, env, ws, files, big, args, logdir):
    print(f"== {name}: {' '.join(argv)}", file=sys.stderr, flush=True)
    srv = Server(name, argv, logdir / f"{name}.stderr.log", env)
    srv.folders = [{"uri": uri_of(ws), "name": ws.name}]
    out = {"name": name, "files": {}, "error": None}
    try:
        await srv.start()
        init = await srv.request("initialize", {
            "processId": os.getpid(), "clientInfo": {"name": "graphmend-lsp-bench"},
            "rootUri": uri_of(ws), "workspaceFolders": srv.folders,
            "capabilities": client_capabilities(),
            "initializationOptions": {}}, args.init_timeout)
        srv.caps = init.get("capabilities", {})
        out["server_info"] = init.get("serverInfo") or {}
        if name == "pyright":
            try:
                pj = Path(argv[0]).resolve().parent / "package.json"
                out["server_info"] = {"name": "pyright", "version": json.loads(pj.read_text())["version"]}
            except (OSError, ValueError, KeyError):
                pass
        await srv.notify("initialized", {})
        if name == "graphmend":
            await srv.notify("$/setTrace", {"value": "verbose"})
        await asyncio.sleep(1.0)  # let workspace indexing start; counted in nobody's figure
        if name == "graphmend" and args.package:
            # a whole package: time edits once the workspace is indexed, as a user who waits for the index
            t0 = now()
            while now() - t0 < args.open_timeout and not any(re.search(r"indexed \d+ Python files", m)
                                                              for _, m in srv.log_messages):
                await asyncio.sleep(0.2)
            done = [m for _, m in srv.log_messages if re.search(r"indexed \d+ Python files", m)]
            out["indexed"] = done[0] if done else f"not indexed after {args.open_timeout:g} s"
            print(f"   {name}: {out['indexed']}", file=sys.stderr, flush=True)
        out["rss_idle_kb"] = srv.rss_kb()
        for f in files:
            res = {}
            out["files"][f.name] = res
            print(f"   {name}: {f.name}", file=sys.stderr, flush=True)
            await bench_file(srv, f, args, res)
            r = res
            print(f"   {name}: {f.name}: open {fmt(r['open_ms'])} ms, edit p50 "
                  f"{fmt(pct(r['lat'], .5))} p95 {fmt(pct(r['lat'], .95))} ms, "
                  f"timeouts {r['timeouts']}", file=sys.stderr, flush=True)
        # memory with 20 large files open
        print(f"   {name}: opening {len(big)} large files", file=sys.stderr, flush=True)
        t0 = now()
        futs = []
        for p in big:
            u = uri_of(p)
            futs.append(srv.expect(lambda r, u=u: r[1] == u))
            await srv.notify("textDocument/didOpen", {"textDocument": {
                "uri": u, "languageId": "python", "version": 1,
                "text": p.read_text(encoding="utf-8")}})
        done, pending = await asyncio.wait(futs, timeout=args.big_timeout) if futs else (set(), set())
        for f in pending:
            f.cancel()
        out["big_with_diags"] = len(done)
        out["big_all_ms"] = (now() - t0) * 1000 if not pending else None
        out["big_quiet"] = await quiet(srv, 3.0, args.big_timeout)
        out["rss_kb"] = srv.rss_kb()
        out["hwm_kb"] = srv.rss_kb("VmHWM")
        out["pids"] = len(srv.tree_pids())
    except Exception as e:  # a server that fails is reported, the others still run
        out["error"] = f"{type(e).__name__}: {e}"
        print(f"   {name}: ERROR {out['error']}", file=sys.stderr, flush=True)
    finally:
        await srv.stop()
    return out


def fmt(x, nd=0):
    if x is None or (isinstance(x, float) and x != x):
        return "-"
    return f"{x:.{nd}f}"


def loadavg():
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def find_transformers(given=None):
    if given:
        if not (Path(given) / "models").is_dir():
            raise SystemExit(f"--transformers {given}: no models/ folder there")
        return Path(given)
    for t in TRANSFORMERS_CANDIDATES:
        if (t / "models").is_dir():
            return t
    raise SystemExit("transformers not found in " + ", ".join(map(str, TRANSFORMERS_CANDIDATES)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--servers", default="graphmend,ruff,pyright")
    ap.add_argument("--jar", default=str(ROOT / "server/target/graphmend.jar"))
    ap.add_argument("--java", default="java")
    ap.add_argument("--java-opts", default="-XX:+UseSerialGC -XX:FreqInlineSize=100 -XX:InlineSmallCode=1000 -XX:-ShrinkHeapInSteps -Xms192m -XX:NewSize=128m")  # what the editor clients pass
    ap.add_argument("--ruff", default="/root/.cache/graphmend/bench-env/bin/ruff")
    ap.add_argument("--pyright", default=str(Path.home() / ".cache/graphmend/bench-node/node_modules/.bin/pyright-langserver"))
    ap.add_argument("--warmup", type=int, default=30)
    ap.add_argument("--edits", type=int, default=200)
    ap.add_argument("--script", choices=("type", "mixed"), default="type",
                    help="type: a keystroke and its deletion; mixed: issue 17's script (Enter, a statement typed, "
                         "a line deleted, a literal changed, a method pasted and deleted), reported per kind")
    ap.add_argument("--files", default="", help="comma-separated files to time instead of the default two")
    ap.add_argument("--package", default="",
                    help="a package folder copied into the workspace root, so the server indexes all of it; "
                         "--files inside it are timed at their place in the copy")
    ap.add_argument("--dense", type=int, default=0,
                    help="also time a dense file of this many copies of bench/dense_file.py's six modules "
                         "(90: about 5,300 lines and 540 diagnostics)")
    ap.add_argument("--slow", default="pyright",
                    help="servers that get --slow-warmup/--slow-edits instead (seconds per edit)")
    ap.add_argument("--slow-warmup", type=int, default=10)
    ap.add_argument("--slow-edits", type=int, default=60)
    ap.add_argument("--gap-ms", type=float, default=20, help="pause before each edit")
    ap.add_argument("--big", type=int, default=20)
    ap.add_argument("--init-timeout", type=float, default=60)
    ap.add_argument("--open-timeout", type=float, default=120)
    ap.add_argument("--edit-timeout", type=float, default=30)
    ap.add_argument("--big-timeout", type=float, default=300)
    ap.add_argument("--out", default=None)
    ap.add_argument("--transformers", default=None,
                    help="the transformers package whose largest files the memory step opens "
                         "(default: the eval or bench environment's)")
    args = ap.parse_args()
    JAVA_OPTS_NOTE[0] = args.java_opts

    tf = find_transformers(args.transformers)
    modeling = max(tf.glob("models/*/modeling_*.py"), key=line_count)
    big_src = sorted(tf.rglob("*.py"), key=lambda p: p.stat().st_size, reverse=True)[:args.big]

    tmp = Path(tempfile.mkdtemp(prefix="graphmend-lsp-bench-"))
    ws = tmp / "ws"
    ws.mkdir()
    sources = [Path(f) for f in args.files.split(",") if f] or [PYDECIMAL, modeling]
    package = Path(args.package).resolve() if args.package else None
    if package:
        shutil.copytree(package, ws / package.name, ignore=shutil.ignore_patterns("__pycache__"))
    files = []
    for src_file in sources:
        inside = package and src_file.resolve().is_relative_to(package)
        dst = ws / package.name / src_file.resolve().relative_to(package) if inside else ws / src_file.name
        if not inside:
            shutil.copy(src_file, dst)
        files.append(dst)
    if args.dense:
        import subprocess
        dense = tmp / f"dense_{args.dense}.py"
        subprocess.run([sys.executable, str(HERE / "dense_file.py"), str(args.dense), str(ws / dense.name)], check=True)
        sources.append(dense)
        files.append(ws / dense.name)
    bigdir = tmp / "big"
    bigdir.mkdir()
    big = []
    for i, p in enumerate(big_src):
        d = bigdir / f"{i:02d}_{p.parent.name}"
        d.mkdir()
        shutil.copy(p, d / p.name)
        big.append(d / p.name)
    logdir = tmp / "logs"
    logdir.mkdir()

    env = dict(os.environ)
    servers = {
        "graphmend": [args.java, *args.java_opts.split(), "-jar", args.jar, "lsp"],
        "ruff": [args.ruff, "server"],
        "pyright": [args.pyright, "--stdio"],
    }
    versions = {}
    load_start = loadavg()
    started = datetime.datetime.now()
    results = []
    for name in args.servers.split(","):
        argv = servers[name]
        if name == "graphmend":
            for _ in range(10):  # someone may be rebuilding the jar
                if Path(args.jar).is_file():
                    break
                print("jar missing, waiting 30 s", file=sys.stderr, flush=True)
                time.sleep(30)
        results.append(asyncio.run(run_server(name, argv, env, ws, files, big, args, logdir)))
    load_end = loadavg()

    # ---------------------------------------------------------------- report
    L = []
    L.append(f"LSP latency benchmark, {started:%Y-%m-%d %H:%M}, host {os.uname().nodename}, "
             f"{os.cpu_count()} CPUs")
    L.append(f"load average (1/5/15 min): {load_start} at start, {load_end} at end "
             "(other jobs were running; figures are under that load)")
    if package:
        L.append(f"the workspace root holds a copy of {package} ({sum(1 for _ in (ws / package.name).rglob('*.py'))} .py files)")
    L.append(f"workspace root: {ws} (" + "; ".join(f"{f.name}: {line_count(f)} lines, from {src}"
                                                 for f, src in zip(files, sources)) + ")")
    L.append(f"edits: {args.warmup} warm-up + {args.edits} measured per file ({args.slow}: "
             f"{args.slow_warmup} + {args.slow_edits}, its edits take seconds), "
             + ("the mixed script (Enter, a statement typed char by char, the line deleted, a literal in an if "
                "changed, a 12-line method pasted into a class and deleted; see mixed_edits)"
                if args.script == "mixed" else
                "one keystroke each (insert 'x' / delete it, alternating, in a function body)")
             + f", next edit {args.gap_ms:g} ms after the previous diagnostics")
    L.append(f"memory: {len(big)} largest *.py of {tf} ({sum(line_count(p) for p in big)} lines) "
             "opened outside the workspace root; RSS = sum of VmRSS over the server's process tree")
    L.append("")
    for r in results:
        si = r.get("server_info") or {}
        L.append(f"{r['name']}: {si.get('name', '?')} {si.get('version', '')}".rstrip()
                 + (f" (edits timed after the server said: {r['indexed']})" if r.get("indexed") else ""))
    L.append("")
    hdr = ("server", "file", "open→diag ms", "edit p50", "p95", "p99", "max", "n", "timeouts",
           f"RSS MB ({len(big)} files)")
    rows = [hdr]
    notes = []
    for r in results:
        rss = fmt(r.get("rss_kb", 0) / 1024 if r.get("rss_kb") else None)
        if r["error"] and not r["files"]:
            rows.append((r["name"], "ERROR", r["error"][:60], "", "", "", "", "", "", ""))
            continue
        for i, (fname, f) in enumerate(r["files"].items()):
            lat = f.get("lat", [])
            rows.append((r["name"], fname, fmt(f.get("open_ms")), fmt(pct(lat, .5), 1),
                         fmt(pct(lat, .95), 1), fmt(pct(lat, .99), 1),
                         fmt(max(lat) if lat else None, 1), str(len(lat)),
                         str(f.get("timeouts", "-")), rss if i == 0 else ""))
            if f.get("unversioned"):
                notes.append(f"{r['name']} / {fname}: {f['unversioned']} of {len(lat)} publishes "
                             "carried no version; timed to the first publish after the change")
            if f.get("analysis_ms"):
                a = f["analysis_ms"]
                notes.append(f"{r['name']} / {fname}: analysis time the server reports ($/logTrace) "
                             f"p50 {pct(a, .5):.0f} ms, p95 {pct(a, .95):.0f} ms (n={len(a)}); "
                             "the rest of the edit latency is applying the change, transport and scheduling"
                             + ("; p50 by phase (ms): " + ", ".join(f"{k} {pct(v, .5):.2f}"
                                                                     for k, v in f["analysis_phases"].items())
                                if f.get("analysis_phases") else "")
                             + ("; p50 MB allocated: " + ", ".join(f"{k} {pct(v, .5):.1f}"
                                                                   for k, v in f["allocated_mb"].items())
                                if f.get("allocated_mb") else ""))
            if f.get("open_trace"):
                notes.append(f"{r['name']} / {fname}: first analysis after didOpen: {f['open_trace']}")
            notes.append(f"{r['name']} / {fname}: {f.get('sync', '?')} sync, edit at line:col "
                         f"{f.get('edit_at', '?')}, {f.get('open_diags', '?')} diagnostics on open")
        if r["error"]:
            notes.append(f"{r['name']}: ERROR {r['error']}")
        if "rss_kb" in r:
            notes.append(f"{r['name']}: RSS idle after initialize {r['rss_idle_kb'] / 1024:.0f} MB; "
                         f"with {len(big)} files {r['rss_kb'] / 1024:.0f} MB (peak VmHWM "
                         f"{r['hwm_kb'] / 1024:.0f} MB, {r['pids']} process(es)); "
                         f"{r['big_with_diags']}/{len(big)} files got diagnostics"
                         + (f" within {r['big_all_ms'] / 1000:.1f} s" if r.get('big_all_ms') else "")
                         + ("" if r.get("big_quiet") else "; server was not quiet when measured"))
    def table(rows):
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for j, row in enumerate(rows):
            L.append("  ".join(c.ljust(widths[i]) if i < 3 and not c[:1].isdigit() else c.rjust(widths[i])
                               for i, c in enumerate(row)).rstrip())
            if j == 0:
                L.append("  ".join("-" * w for w in widths))
        L.append("")

    table(rows)
    if args.script == "mixed":
        kinds = [("server", "file", "edit kind", "p50", "p95", "max", "n")]
        for r in results:
            for fname, f in r["files"].items():
                for kind, xs in f.get("by_kind", {}).items():
                    kinds.append((r["name"], fname, kind, fmt(pct(xs, .5), 1), fmt(pct(xs, .95), 1),
                                  fmt(max(xs), 1), str(len(xs))))
        L.append("By edit kind (ms):")
        table(kinds)
    L.append("Latency: didChange sent → publishDiagnostics with that version received (ms); "
             "open→diag: didOpen sent → first publishDiagnostics for the URI.")
    L.append("GraphMend runs with its shipped defaults: no debounce (the analysis of a change starts "
             "at once; changes arriving while one runs coalesce), JVM options: " + JAVA_OPTS_NOTE[0] + ".")
    L.append("GraphMend's RSS is the JVM's: it includes garbage not yet collected and heap the "
             "collector keeps; it is what the process holds, not its live data.")
    L.append("pyright: no Python environment configured; it resolves imports against the "
             "`python` on PATH (no torch there), with its default settings (openFilesOnly).")
    L.append("")
    L.extend(notes)
    L.append(f"server stderr logs: {logdir}")
    text = "\n".join(L) + "\n"
    print(text)
    outp = Path(args.out) if args.out else HERE / "out" / f"lsp-latency-{started:%Y-%m-%d-%H%M%S}.txt"
    outp.parent.mkdir(parents=True, exist_ok=True)
    outp.write_text(text)
    (outp.with_suffix(".json")).write_text(json.dumps(
        {"results": results, "load_start": load_start, "load_end": load_end}, default=str))
    print(f"written to {outp}", file=sys.stderr)


if __name__ == "__main__":
    main()
