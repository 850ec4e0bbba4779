"""Runs generated functions under sys.settrace and prints the line events of each run.

Usage: trace_harness.py PROGRAMS.json OUT.txt SEED RUNS
PROGRAMS.json is a list of {"src": ..., "gen": bool}; each source defines f(a, b, c).
Each output line: INDEX RUN OUTCOME LINE LINE ...   (OUTCOME: R returned, E raised)
Only line events of f's own frame count (a generator's frame across suspensions included).
"""
import json
import os
import random
import sys


LIMIT = 100000


class CM:
    """A context manager that suppresses exceptions when its value is odd."""

    def __init__(self, v):
        self.v = v

    def __enter__(self):
        return self.v

    def __exit__(self, et, ev, tb):
        return isinstance(self.v, int) and self.v % 2 == 1


def main():
    programs = json.load(open(sys.argv[1], encoding="utf-8"))
    seed, runs = int(sys.argv[3]), int(sys.argv[4])
    rnd = random.Random(seed)
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        for index, program in enumerate(programs):
            namespace = {"CM": CM, "print": lambda *args: None}
            exec(compile(program["src"], "<generated %d>" % index, "exec"), namespace)
            fn = namespace["f"]
            code = fn.__code__
            for run in range(runs):
                args = [rnd.randint(-2, 6) for _ in range(3)]
                lines = []

                def local(frame, event, arg):
                    if event == "line":
                        lines.append(frame.f_lineno)
                        if len(lines) > LIMIT:  # the generator promises termination; do not hang or eat memory
                            sys.settrace(None)
                            sys.stderr.write("function %d ran away (more than %d line events)\n" % (index, LIMIT))
                            sys.stderr.flush()
                            os._exit(3)
                    return local

                def glob(frame, event, arg):
                    return local if frame.f_code is code else None

                sys.settrace(glob)
                try:
                    result = fn(*args)
                    if program["gen"]:
                        list(result)
                    outcome = "R"
                except BaseException:
                    outcome = "E"
                finally:
                    sys.settrace(None)
                out.write("%d %d %s %s\n" % (index, run, outcome, " ".join(map(str, lines))))


if __name__ == "__main__":
    main()
