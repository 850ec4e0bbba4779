#!/usr/bin/env python3
"""Lists the benchmark's files: every *.py under STDLIB_DIR that this CPython accepts.

Usage: list_files.py STDLIB_DIR > files.tsv

Skips site-packages/ and every folder named test, tests or idle_test (the test suites).
Each file is read as bytes and handed to ast.parse (so a BOM and coding declarations count as
CPython counts them); output lines are "LINES<TAB>BYTES<TAB>PATH" in sorted path order, where
LINES is the number of physical lines (\\n, \\r\\n and a lone \\r each end one). Files CPython
rejects are named on stderr, with a summary line.
"""
import ast
import os
import sys
import warnings

EXCLUDED_DIRS = {"site-packages", "test", "tests", "idle_test"}


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: list_files.py STDLIB_DIR")
    root = os.path.abspath(sys.argv[1])
    paths = []
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in EXCLUDED_DIRS and d != "__pycache__")
        paths.extend(os.path.join(dirpath, f) for f in files if f.endswith(".py"))
    paths.sort()
    accepted = rejected = 0
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ast.parse(data, path)
        except (SyntaxError, ValueError, UnicodeError) as e:
            rejected += 1
            print("rejected by CPython: %s (%s: %s)" % (os.path.relpath(path, root), type(e).__name__, e),
                  file=sys.stderr)
            continue
        accepted += 1
        print("%d\t%d\t%s" % (len(data.splitlines()), len(data), path))
    print("%d files accepted, %d rejected by CPython %s under %s (excluded folders: %s)"
          % (accepted, rejected, sys.version.split()[0], root, ", ".join(sorted(EXCLUDED_DIRS))),
          file=sys.stderr)


if __name__ == "__main__":
    main()
