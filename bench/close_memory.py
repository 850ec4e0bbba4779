#!/usr/bin/env python3
"""Resident memory of GraphMend's language server after large documents are closed (issue 40).

1. Start the server as the editors do (``java`` with --java-opts, the clients' JVM options, and
   ``-jar server/target/graphmend.jar lsp``), ``initialize`` with an empty workspace folder,
   ``initialized``; wait --settle seconds and read the resident memory (VmRSS of the process,
   /proc/PID/status): the baseline.
2. Open --files documents of --copies copies of bench/dense_file.py's six modules each (340: about
   20,000 lines and 2,000 diagnostics a file; 850: about 50,000), one after the other, each when
   the previous one's diagnostics arrived; read VmRSS: "open".
3. Close them all, wait for the empty publish of each, then sample VmRSS once a second for --idle
   seconds: "closed" is the last sample (the lowest is printed too).
4. ``shutdown``/``exit``.

Usage: python3 bench/close_memory.py [--files 5] [--copies 340] [--idle 20] [--java-opts "..."]
The jar is not built here (mvn -q -DskipTests package). Measurements are printed; nothing is asserted.
"""

import argparse
import asyncio
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from lsp_latency import Server, client_capabilities, uri_of  # noqa: E402  (one JSON-RPC client for the benchmarks)


def mb(kb):
    return f"{kb / 1024:.0f} MB"


async def run(args):
    tmp = Path(tempfile.mkdtemp(prefix="graphmend-close-memory-"))
    try:
        ws = tmp / "ws"
        ws.mkdir()
        docs = tmp / "docs"  # outside the workspace folder: only the editor text holds them
        docs.mkdir()
        subprocess.run([sys.executable, str(HERE / "dense_file.py"), str(args.copies), str(docs / "dense_0.py")], check=True)
        files = [docs / "dense_0.py"]
        for i in range(1, args.files):
            files.append(docs / f"dense_{i}.py")
            shutil.copy(files[0], files[-1])
        lines = files[0].read_text().count("\n")

        argv = [args.java, *args.java_opts.split(), "-jar", args.jar, "lsp"]
        server = Server("graphmend", argv, tmp / "server.log")
        server.folders = [{"uri": uri_of(ws), "name": "ws"}]
        await server.start()
        await server.request("initialize", {"processId": None, "rootUri": uri_of(ws), "capabilities": client_capabilities(),
                                            "workspaceFolders": server.folders}, 120)
        await server.notify("initialized", {})
        await asyncio.sleep(args.settle)
        base = server.rss_kb()
        print(f"server: {' '.join(argv)}")
        print(f"baseline (initialized, idle {args.settle} s): VmRSS {mb(base)}")

        t0 = time.monotonic()
        for f in files:
            uri = uri_of(f)
            got = server.expect(lambda rec, uri=uri: rec[1] == uri and rec[2] == 1)
            await server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                                         "text": f.read_text()}})
            rec = await asyncio.wait_for(got, args.open_timeout)
            print(f"  opened {f.name}: {lines} lines, {rec[3]} diagnostics")
        opened = server.rss_kb()
        print(f"open ({args.files} files of {lines} lines, {time.monotonic() - t0:.0f} s): VmRSS {mb(opened)}")

        for f in files:
            uri = uri_of(f)
            got = server.expect(lambda rec, uri=uri: rec[1] == uri and rec[2] is None and rec[3] == 0)
            await server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
            await asyncio.wait_for(got, 30)
        samples = []
        for _ in range(args.idle):
            await asyncio.sleep(1)
            samples.append(server.rss_kb())
        print(f"closed, idle {args.idle} s: VmRSS {mb(samples[-1])} (lowest {mb(min(samples))}; per second: "
              + " ".join(f"{s / 1024:.0f}" for s in samples) + ")")
        await server.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jar", default=str(HERE.parent / "server/target/graphmend.jar"))
    ap.add_argument("--java", default="java")
    ap.add_argument("--java-opts", default="-XX:+UseSerialGC -XX:FreqInlineSize=100 -XX:InlineSmallCode=1000 -XX:-ShrinkHeapInSteps -Xms192m -XX:NewSize=128m",
                    help="the JVM options the editor clients pass (the graphmend launcher's)")
    ap.add_argument("--files", type=int, default=5)
    ap.add_argument("--copies", type=int, default=340)
    ap.add_argument("--settle", type=int, default=5)
    ap.add_argument("--idle", type=int, default=20)
    ap.add_argument("--open-timeout", type=float, default=300)
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
