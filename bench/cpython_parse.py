#!/usr/bin/env python3
"""CPython's side of the parse benchmark: times ast.parse over the files of a list.

Usage: cpython_parse.py FILES.tsv [--passes N] [--warmup N]

FILES.tsv comes from list_files.py. All files are read into memory as bytes first; then
--warmup untimed passes (default 1) and --passes timed passes (default 5) each call
ast.parse(bytes, path) on every file, in list order, on one thread, with the garbage collector
left on (as in normal use). Prints key=value lines: python, files, lines, bytes, warmup_s,
passes_s (comma separated), median_s, min_s.
"""
import argparse
import ast
import statistics
import sys
import time
import warnings


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files")
    ap.add_argument("--passes", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=1)
    args = ap.parse_args()
    items = []
    lines = 0
    with open(args.files, encoding="utf-8") as f:
        for row in f:
            n, _, path = row.rstrip("\n").split("\t", 2)
            with open(path, "rb") as src:
                items.append((src.read(), path))
            lines += int(n)
    warnings.simplefilter("ignore")

    def one_pass():
        t0 = time.perf_counter()
        for data, path in items:
            ast.parse(data, path)
        return time.perf_counter() - t0

    warm = [one_pass() for _ in range(args.warmup)]
    passes = [one_pass() for _ in range(args.passes)]
    print("python=%s" % sys.version.split()[0])
    print("files=%d" % len(items))
    print("lines=%d" % lines)
    print("bytes=%d" % sum(len(d) for d, _ in items))
    print("warmup_s=%s" % ",".join("%.4f" % t for t in warm))
    print("passes_s=%s" % ",".join("%.4f" % t for t in passes))
    print("median_s=%.6f" % statistics.median(passes))
    print("min_s=%.6f" % min(passes))


if __name__ == "__main__":
    main()
