#!/usr/bin/env python3
"""Adversarial inputs of issue 40 timed by our parser and CPython's ast.parse in the same run.

Usage: bench/deep-inputs.sh (builds, then runs this). Generates each input into a scratch folder,
times CPython 3.13's ast.parse on it in process (median of PASSES; a SyntaxError, RecursionError or
MemoryError is a verdict, timed like an accept), runs DeepInputsBench (our parser, in process, on a
DeepStack thread: the first parse and the median of PASSES more), and prints one table with the
ratio ours/CPython on the medians, also written to bench/out/deep-inputs-<date>.txt.
"""
import ast
import datetime
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

PASSES = int(os.environ.get("PASSES", "7"))


def inputs():
    blocks = lambda n: "".join(" " * i + "if a:\n" for i in range(n)) + " " * n + "pass\n"
    yield "hex literal, 1M digits", "x = 0x" + "f" * 1_000_000 + "\n"
    yield "hex literal, 200k digits", "x = 0x" + "f" * 200_000 + "\n"
    yield "decimal literal, 1M digits", "x = " + "9" * 1_000_000 + "\n"
    yield "string literal, 1M chars", "x = '" + "a" * 1_000_000 + "'\n"
    yield "5,000 nested blocks", blocks(5000)
    yield "1,000 nested blocks", blocks(1000)
    yield "99 nested blocks", blocks(99)
    yield "attribute chain, 5,000 links", "y = x" + ".b" * 5000 + "\n"
    yield "call chain, 1M links", "y = f" + "()" * 1_000_000 + "\n"
    yield "unary chain, 5,000", "y = " + "-" * 5000 + "x\n"
    yield "brackets, 100,000 deep", "y = " + "(" * 100_000 + "a" + ")" * 100_000 + "\n"


def cpython_ms(data):
    warnings.simplefilter("ignore")
    times, verdict = [], None
    for _ in range(PASSES):
        t0 = time.perf_counter()
        try:
            ast.parse(data)
            verdict = "accept"
        except SyntaxError as e:
            verdict = "SyntaxError: " + str(e.msg)[:50]
        except (RecursionError, MemoryError) as e:
            verdict = type(e).__name__
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), verdict


def main():
    classpath = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, (name, text) in enumerate(inputs()):
            path = os.path.join(tmp, "in%02d.py" % i)
            with open(path, "w") as f:
                f.write(text)
            paths.append((name, path, text.encode()))
        ours = subprocess.run(["java", "-cp", classpath, "dev.graphmend.bench.DeepInputsBench", str(PASSES)]
                              + [p for _, p, _ in paths], capture_output=True, text=True, check=True).stdout
        by_path = {line.split("\t")[0]: line.split("\t") for line in ours.splitlines()}
        for name, path, data in paths:
            c_ms, c_verdict = cpython_ms(data)
            _, n_errors, first, cold, median = by_path[path]
            rows.append((name, c_verdict, first if int(n_errors) else "accept", c_ms, float(cold), float(median)))
    stamp = datetime.date.today().isoformat()
    lines = ["deep inputs, %s; CPython %s ast.parse in process vs our PythonSourceParser in process (DeepStack thread); "
             "medians of %d passes, ours also the first (cold JVM) parse" % (stamp, sys.version.split()[0], PASSES), "",
             "| input | CPython verdict | our verdict | CPython ms | ours cold ms | ours ms | ours/CPython |",
             "|---|---|---|---|---|---|---|"]
    for name, cv, ov, c, cold, med in rows:
        lines.append("| %s | %s | %s | %.2f | %.1f | %.2f | %.1f× |" % (name, cv, ov[:50], c, cold, med, med / max(c, 0.001)))
    text = "\n".join(lines) + "\n"
    print(text)
    out = os.path.join(here, "out", "deep-inputs-%s.txt" % stamp)
    with open(out, "w") as f:
        f.write(text)
    print("written to", out, file=sys.stderr)


if __name__ == "__main__":
    main()
