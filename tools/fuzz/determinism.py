#!/usr/bin/env python3
"""Determinism over the fuzzer's corpus (issue 40): the same text analysed by the CLI, by a cold
language server and by a warm one gives identical diagnostics.

  python3 tools/fuzz/determinism.py --jar server/target/graphmend.jar --corpus DIR [--max-files N]
        [--report FILE]

For each file of DIR (the fuzzer's --corpus-out; only files that decode as UTF-8, since an editor
sends text, not bytes, and a byte-order mark is left out of the text as editors do) the
diagnostics as (code, range, message) are taken from:

Besides the corpus, deep_inputs() adds 16 deep-nesting files around CPython's limits (--no-deep
leaves them out).

1. the CLI: `check --format json --exit-zero --no-config` over the folder (tools/fuzz/gm.py:
   one JVM, bisected when it fails as a whole; a file the CLI crashes on is a failure);
2. a cold server, `java -Xint -jar JAR lsp`: the interpreter only, the JVM's coldest state and its
   biggest stack frames;
3. a JIT server, `java -jar JAR lsp`: a warm-up pass over the whole corpus, then every file again
   (both passes compared).

In a server each file is opened alone (didOpen, its publishDiagnostics for that version, didClose;
no workspace folder), so each analysis sees the one document; the CLI's folder is one project, but
the files are named iNNNNNNN.py, which nothing in them imports, so each is analysed alone there
too. LSP ranges and the CLI JSON's ranges are both 0-based lines and UTF-16 characters
(docs/cli.md, docs/lsp.md), so they are compared as they are. Any difference fails, printing the
file and both lists. Exit status: 0 identical, 1 differences or crashes, 2 could not run.
"""

import argparse
import json
import os
import queue
import subprocess
import tempfile
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import gm  # noqa: E402


class LspServer:
    """A synchronous JSON-RPC client over a server's stdio (a reader thread feeds a queue)."""

    def __init__(self, name, argv, stderr_path):
        self.name = name
        self.stderr_f = open(stderr_path, "wb")
        self.stderr_path = stderr_path
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr_f,
                                     start_new_session=True)
        self.q = queue.Queue()
        self.next_id = 0
        self.logs = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = out.readline()
                    if not line:
                        self.q.put(None)
                        return
                    line = line.strip()
                    if not line:
                        break
                    k, _, v = line.decode("ascii", "replace").partition(":")
                    if k.strip().lower() == "content-length":
                        length = int(v)
                if length is None:
                    continue
                self.q.put(json.loads(out.read(length)))
        except Exception as e:  # the server closed its output or sent garbage
            self.q.put({"_reader_error": repr(e)})
            self.q.put(None)

    def send(self, obj):
        body = json.dumps(obj, separators=(",", ":")).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def wait(self, pred, timeout):
        """Handles messages until pred(msg) is true; returns that message (None on timeout/EOF)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                msg = self.q.get(timeout=left)
            except queue.Empty:
                return None
            if msg is None:
                return None
            if "_reader_error" in msg:
                self.logs.append("reader: " + msg["_reader_error"])
                continue
            if "method" in msg and "id" in msg:  # a request from the server: answer it
                m = msg["method"]
                result = None
                if m == "workspace/configuration":
                    result = [{} for _ in (msg.get("params") or {}).get("items", [])]
                elif m == "workspace/workspaceFolders":
                    result = []
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
            elif msg.get("method") == "window/logMessage":
                self.logs.append((msg.get("params") or {}).get("message", ""))
            if pred(msg):
                return msg

    def initialize(self, timeout):
        i = self.request("initialize", {
            "processId": os.getpid(), "clientInfo": {"name": "graphmend-determinism"},
            "rootUri": None, "workspaceFolders": None,
            "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": True}},
                             "workspace": {"configuration": True}}})
        r = self.wait(lambda m: m.get("id") == i and "method" not in m, timeout)
        if r is None:
            raise RuntimeError("%s: no answer to initialize in %d s" % (self.name, timeout))
        self.notify("initialized", {})

    def failed_analysis(self, uri):
        """The server's log line saying the analysis of `uri` failed (it then publishes nothing)."""
        self.stderr_f.flush()
        with open(self.stderr_path, "rb") as f:
            f.seek(self.stderr_seen)
            for line in f.read().decode("utf-8", "replace").splitlines():
                if "analysis of %s failed" % uri in line:
                    return line.strip()
        return None

    def diagnostics(self, uri, text, version, timeout):
        """didOpen, the diagnostics published for that version, didClose. Returns the list, or a
        string: why there is none (the server logged that the analysis failed, or the timeout)."""
        self.stderr_seen = os.path.getsize(self.stderr_path)
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": version,
                                                              "text": text}})
        deadline = time.monotonic() + timeout
        m = None
        while m is None and time.monotonic() < deadline:
            m = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and m["params"].get("uri") == uri and m["params"].get("version") == version,
                          min(1.0, deadline - time.monotonic()))
            if m is None:
                failed = self.failed_analysis(uri)
                if failed:
                    self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
                    return "nothing published; the server logged: " + failed
                if self.proc.poll() is not None:
                    return "the server exited (status %s)" % self.proc.returncode
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        if m is None:
            return "no publishDiagnostics in %d s" % timeout
        return m["params"].get("diagnostics") or []

    def close(self):
        try:
            i = self.request("shutdown", None)
            self.wait(lambda m: m.get("id") == i and "method" not in m, 20)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except Exception:
            pass
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, 9)
            self.proc.wait()
        self.stderr_f.close()


def norm(diags):
    """(code, range, message) of each diagnostic, in a fixed order."""
    out = []
    for d in diags:
        r = d.get("range") or {}
        s, e = r.get("start") or {}, r.get("end") or {}
        code = d.get("code")
        if isinstance(code, dict):
            code = code.get("value")
        out.append((str(code), s.get("line"), s.get("character"), e.get("line"), e.get("character"), d.get("message")))
    return sorted(out, key=repr)


def deep_inputs():
    """A few deep-nesting files at and around CPython 3.13's limits (tools/fuzz/mutate.py's
    DEPTHS), inside a function, where analyses recurse deepest: the ones most likely to be judged
    differently by a JVM whose stack frames differ (interpreter, C1, C2)."""
    out = []
    def fn(body):
        return b"import torch\n\n\n@torch.compile\ndef f(x, a):\n    y = " + body + b"\n    return y\n"
    for n in (1000, 3000, 9900):
        out.append(("deep-attr-%d.py" % n, fn(b"a" + b".b" * n)))
        out.append(("deep-call-%d.py" % n, fn(b"a" + b"()" * n)))
    for n in (1000, 2000, 5900):
        out.append(("deep-unary-%d.py" % n, fn(b"-" * n + b"x")))
        out.append(("deep-not-%d.py" % n, fn(b"not " * n + b"x")))
    for n in (3000, 9900):
        out.append(("deep-binop-%d.py" % n, fn(b"x" + b" + x" * n)))
    for n in (199, 200):
        out.append(("deep-brackets-%d.py" % n, fn(b"(" * n + b"x" + b")" * n)))
    blocks = b"".join(b" " * (4 + i) + b"if x:\n" for i in range(94))
    out.append(("deep-blocks-98.py", b"def f(x):\n" + blocks + b" " * 98 + b"x = x + 1\n"))
    return out


def lsp_pass(server, files, timeout, label, problems):
    """name -> normalised diagnostics (None where the server gave none in time)."""
    res = {}
    for k, (name, path, text) in enumerate(files):
        d = server.diagnostics(path.resolve().as_uri(), text, k + 1, timeout)
        if isinstance(d, str):
            problems.append("%s: %s: %s" % (label, name, d))
            res[name] = None
            if server.proc.poll() is not None:
                break
            continue
        res[name] = norm(d)
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jar", required=True)
    ap.add_argument("--corpus", required=True, help="a folder of .py files (the fuzzer's --corpus-out)")
    ap.add_argument("--max-files", type=int, default=300)
    ap.add_argument("--max-bytes", type=int, default=60000, help="leave out larger files (-Xint is slow)")
    ap.add_argument("--timeout", type=float, default=120, help="seconds to wait for one file's diagnostics")
    ap.add_argument("--java", default="java")
    ap.add_argument("--report", help="write the result as JSON here")
    ap.add_argument("--no-deep", action="store_true", help="leave out the built-in deep-nesting files")
    args = ap.parse_args(argv)

    corpus = Path(args.corpus)
    files = []
    for p in sorted(corpus.glob("*.py")):
        data = p.read_bytes()
        if len(data) > args.max_bytes:
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if text.startswith("\ufeff"):
            text = text[1:]
        files.append((p.name, p, text))
        if len(files) >= args.max_files:
            break
    if not files:
        print("determinism: no UTF-8 .py files in %s" % corpus, file=sys.stderr)
        return 2
    deep_dir = Path(tempfile.mkdtemp(prefix="gm-det-deep-"))
    if not args.no_deep:
        for name, data in deep_inputs():
            (deep_dir / name).write_bytes(data)
            files.append((name, deep_dir / name, data.decode("utf-8")))
    t0 = time.monotonic()
    problems = []
    workdir = Path(os.environ.get("TMPDIR", "/tmp"))

    # 1. the CLI, over a folder holding exactly these files
    jar = gm.Jar(args.jar, java=args.java)
    cli_raw = gm.check_batch(jar, {n: p.read_bytes() for n, p, _ in files}, str(workdir))
    cli = {}
    cli_errors = {}
    for n, r in cli_raw.items():
        if r["problems"]:
            problems.append("CLI: %s: %s" % (n, "; ".join("%s: %s" % pr for pr in r["problems"])[:500]))
        elif r["ours"] in ("accept", "reject"):
            cli[n] = norm(r["diags"])
            if r.get("error"):  # not read: no diagnostics, the reason in the JSON's errors
                cli_errors[n] = r["error"]
    t_cli = time.monotonic() - t0

    # 2 and 3 side by side: the interpreter-only server, and the JIT server's two passes
    logdir = Path(args.report).with_suffix("") if args.report else workdir
    logdir.mkdir(parents=True, exist_ok=True)
    results = {}

    def run_server(label, argv, passes):
        srv = LspServer(label, argv, str(logdir / ("lsp-%s.stderr" % label)))
        try:
            srv.initialize(args.timeout)
            for p in passes:
                results[p] = lsp_pass(srv, files, args.timeout, p, problems)
        except Exception as e:
            problems.append("%s: %s" % (label, e))
        finally:
            srv.close()
        err = Path(srv.stderr_path).read_text("utf-8", "replace")
        bad = [l for l in err.splitlines() if gm.CRASH_RE.search(l) and " failed: " not in l]
        if bad:
            problems.append("%s: the server's log has errors: %s" % (label, " | ".join(bad[:10])))

    threads = [
        threading.Thread(target=run_server, args=("xint", [args.java, "-Xint", "-jar", args.jar, "lsp"], ["cold-xint"])),
        threading.Thread(target=run_server, args=("jit", [args.java, "-jar", args.jar, "lsp"], ["jit-warmup", "jit-warm"])),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    t_all = time.monotonic() - t0

    diffs = []
    compared = 0
    for name, _, _ in files:
        if name not in cli:
            continue
        compared += 1
        for label in ("cold-xint", "jit-warmup", "jit-warm"):
            got = results.get(label, {}).get(name)
            if got is None:
                continue  # already a problem (no answer)
            if got != cli[name]:
                only_cli = [d for d in cli[name] if d not in got]
                only_lsp = [d for d in got if d not in cli[name]]
                diffs.append({"file": name, "server": label, "cli": cli[name], "lsp": got,
                              "cli_error": cli_errors.get(name),
                              "only_cli": only_cli, "only_lsp": only_lsp})
    ndiag = sum(len(v) for v in cli.values())
    print("determinism: %d files (of %s, UTF-8, <= %d bytes), %d compared, %d CLI diagnostics; "
          "CLI %.0f s, all %.0f s" % (len(files), corpus, args.max_bytes, compared, ndiag, t_cli, t_all))
    for p in problems:
        p = p.replace("\n", " | ")
        print("FAIL: " + (p if len(p) <= 400 else p[:400] + " ..."))
    for d in diffs[:50]:
        print("FAIL: %s: CLI and %s server differ" % (d["file"], d["server"]))
        if d["cli_error"]:
            print("  the CLI did not read it: %s" % d["cli_error"])
        print("  only in CLI:    %s" % d["only_cli"][:10])
        print("  only in server: %s" % d["only_lsp"][:10])
    if args.report:
        Path(args.report).write_text(json.dumps({"files": len(files), "compared": compared, "cli_diagnostics": ndiag,
                                                 "seconds": round(t_all, 1), "problems": problems, "diffs": diffs},
                                                indent=1) + "\n")
    if problems or diffs:
        print("determinism: FAILED (%d problems, %d differences)" % (len(problems), len(diffs)))
        return 1
    print("determinism: identical (CLI, -Xint server, JIT server cold and warm)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
