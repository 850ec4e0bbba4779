#!/usr/bin/env python3
"""One language-server session over stdio, as an editor opens a file: initialize, open, wait for
the file's diagnostics, shut down. Prints one JSON line (diagnostic count, the server's
`graphmend/status` notification if it sent one, the exit status) and exits 0 only when the file
got at least one diagnostic and the server exited cleanly.

Usage: lsp_smoke.py FILE -- SERVER_COMMAND...   (e.g. lsp_smoke.py examples/attention.py -- graphmend lsp)
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

TIMEOUT_S = 120


def reader(stream, out: queue.Queue) -> None:
    while True:
        length = None
        while True:
            line = stream.readline()
            if not line:
                out.put(None)
                return
            line = line.strip()
            if not line:
                break
            key, _, value = line.decode("ascii", "replace").partition(":")
            if key.strip().lower() == "content-length":
                length = int(value)
        if length is not None:
            out.put(json.loads(stream.read(length)))


def main() -> int:
    split = sys.argv.index("--")
    file = Path(sys.argv[1]).resolve()
    argv = sys.argv[split + 1:]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    messages: queue.Queue = queue.Queue()
    threading.Thread(target=reader, args=(proc.stdout, messages), daemon=True).start()
    next_id = 0

    def send(obj: dict) -> None:
        body = json.dumps(obj).encode()
        proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        proc.stdin.flush()

    def request(method: str, params: dict) -> int:
        nonlocal next_id
        next_id += 1
        send({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params})
        return next_id

    result = {"file": str(file), "diagnostics": None, "status": None, "exit": None, "error": None}
    deadline = time.monotonic() + TIMEOUT_S

    def until(predicate):
        while time.monotonic() < deadline:
            try:
                msg = messages.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                break
            if msg is None:
                raise EOFError("the server closed its output")
            if "method" in msg and "id" in msg:  # a request from the server: answer plainly
                items = (msg.get("params") or {}).get("items", [])
                answer = [{} for _ in items] if msg["method"] == "workspace/configuration" else None
                send({"jsonrpc": "2.0", "id": msg["id"], "result": answer})
                continue
            if msg.get("method") == "graphmend/status":
                result["status"] = msg.get("params")
            if predicate(msg):
                return msg
        raise TimeoutError(f"no answer within {TIMEOUT_S} s")

    try:
        root = file.parent.as_uri()
        init = request("initialize", {"processId": None, "rootUri": root, "capabilities": {},
                                      "workspaceFolders": [{"uri": root, "name": file.parent.name}]})
        until(lambda m: m.get("id") == init)
        send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": file.as_uri(), "languageId": "python", "version": 1,
            "text": file.read_text(encoding="utf-8")}}})
        published = until(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and m["params"]["uri"] == file.as_uri())
        result["diagnostics"] = len(published["params"]["diagnostics"])
        shutdown = request("shutdown", {})
        until(lambda m: m.get("id") == shutdown)
        send({"jsonrpc": "2.0", "method": "exit"})
        result["exit"] = proc.wait(timeout=30)
    except (EOFError, TimeoutError, OSError, subprocess.TimeoutExpired) as error:
        result["error"] = str(error)
        proc.kill()
    print(json.dumps(result))
    return 0 if result["error"] is None and result["exit"] == 0 and (result["diagnostics"] or 0) > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
