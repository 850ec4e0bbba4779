#!/usr/bin/env python3
"""Compare our parser with CPython's ast, file by file, over whole folders (docs/gm-ast-v1.md).

Usage: compare_ast.py [--python PY] [--jar JAR] [--report FILE] [--exclude NAME]... FOLDER...

Runs CPython's dumper (tools/gm_ast_dump.py under PY; default: the newest pyenv CPython 3.13.x)
and our `graphmend ast` (java -jar JAR; default: ./graphmend, which builds the jar when stale)
once each over the same paths, at the same time, splits both outputs on their `== PATH` lines and
reports:
  - files compared, identical, differing (with the first differing line of each file's dump:
    its line number in that dump, ours and CPython's),
  - files CPython rejects, and whether we reject them too (we should),
  - files we reject although CPython accepts them (our false syntax errors).
Exit status: 0 when no file differs (a file CPython rejects and we accept counts as differing)
and there is no false syntax error; 1 otherwise; 2 when a tool could not be run.

--exclude NAME skips folders with that name anywhere below FOLDER (e.g. --exclude site-packages);
the folders are then expanded here (exactly as gm_ast_dump.py expands them) and both tools get
the same file list. --report FILE writes the full listing (the console shows the first --limit
entries of each list).
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gm_ast_dump import expand  # noqa: E402  (one folder expansion for both dumpers)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DUMPER = os.path.join(HERE, "gm_ast_dump.py")
REFERENCE_SERIES = (3, 13)
SYNTAX_ERROR = b"! syntax error "


def version_key(path):
    name = os.path.basename(os.path.dirname(os.path.dirname(path)))
    parts = []
    for p in re.split(r"[.]", name):
        m = re.match(r"\d+", p)
        parts.append(int(m.group(0)) if m else -1)
    return tuple(parts)


def default_python():
    """The newest pyenv CPython 3.13.x; failing that, the newest pyenv 3.x (with a warning)."""
    pyenv = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    found = [p for p in glob.glob(os.path.join(pyenv, "versions", "3.*", "bin", "python3"))
             if re.match(r"^3\.\d+\.\d+$", os.path.basename(os.path.dirname(os.path.dirname(p))))]
    if not found:
        return None, "no CPython 3.x under %s/versions" % pyenv
    found.sort(key=version_key)
    pinned = [p for p in found if version_key(p)[:2] == REFERENCE_SERIES]
    if pinned:
        return pinned[-1], None
    return found[-1], ("warning: no CPython %d.%d under pyenv; using %s (positions inside f-strings "
                       "differ by version)" % (REFERENCE_SERIES + (found[-1],)))


def run_to_file(cmd, out_path, err_path, env=None):
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.time()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        rc = proc.wait()
        return rc, time.time() - start


def index_sections(path):
    """[(file path bytes, start offset, end offset)] of each `== PATH` section's body."""
    sections = []
    with open(path, "rb") as f:
        offset = 0
        current = None
        start = 0
        for line in f:
            if line.startswith(b"== "):
                if current is not None:
                    sections.append((current, start, offset))
                current = line[3:].rstrip(b"\n")
                start = offset + len(line)
            offset += len(line)
        if current is not None:
            sections.append((current, start, offset))
    return sections


def read_section(f, start, end):
    f.seek(start)
    return f.read(end - start).split(b"\n")[:-1] if end > start else []


def text(b):
    return b.decode("utf-8", "replace")


def first_difference(ours, theirs):
    n = min(len(ours), len(theirs))
    for i in range(n):
        if ours[i] != theirs[i]:
            return i + 1, text(ours[i]), text(theirs[i])
    return n + 1, (text(ours[n]) if n < len(ours) else "<end of dump>"), \
        (text(theirs[n]) if n < len(theirs) else "<end of dump>")


def tail(path, n=15):
    try:
        with open(path, "rb") as f:
            lines = f.read().decode("utf-8", "replace").splitlines()
        return "\n".join(lines[-n:])
    except OSError:
        return ""


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--python", help="CPython for the reference dump (default: newest pyenv 3.13.x)")
    ap.add_argument("--jar", help="graphmend.jar (default: ./graphmend, which builds it when stale)")
    ap.add_argument("--report", help="write the full report to this file too")
    ap.add_argument("--exclude", action="append", default=[], metavar="NAME",
                    help="skip folders with this name (repeatable)")
    ap.add_argument("--limit", type=int, default=30, help="entries per list on the console (default 30)")
    ap.add_argument("folders", nargs="+", metavar="FOLDER")
    args = ap.parse_args(argv)

    python = args.python
    if python is None:
        python, note = default_python()
        if python is None:
            print("compare_ast: " + note + "; pass --python", file=sys.stderr)
            return 2
        if note:
            print("compare_ast: " + note, file=sys.stderr)
    for p in args.folders:
        if not os.path.exists(p):
            print("compare_ast: %s: no such file or directory" % p, file=sys.stderr)
            return 2

    if args.exclude:
        paths = list(expand(args.folders, set(args.exclude)))  # gm_ast_dump.expand
        if not paths:
            print("compare_ast: no *.py files under " + " ".join(args.folders), file=sys.stderr)
            return 2
    else:
        paths = list(args.folders)

    if args.jar:
        if not os.path.isfile(args.jar):
            print("compare_ast: %s: no such jar (build with: mvn -q -DskipTests package)" % args.jar,
                  file=sys.stderr)
            return 2
        ours_cmd = ["java", "-jar", args.jar, "ast"]
        ours_name = "java -jar " + args.jar
    else:
        ours_cmd = [os.path.join(ROOT, "graphmend"), "ast"]
        ours_name = "./graphmend"
    theirs_cmd = [python, DUMPER]

    try:
        py_version = subprocess.run([python, "-c", "import sys; print(sys.version.split()[0])"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True,
                                    universal_newlines=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as e:
        print("compare_ast: cannot run %s: %s" % (python, e), file=sys.stderr)
        return 2

    env = dict(os.environ, PYTHONIOENCODING="utf-8:surrogateescape", PYTHONUTF8="1")
    with tempfile.TemporaryDirectory(prefix="compare_ast.") as tmp:
        files = {k: (os.path.join(tmp, k + ".out"), os.path.join(tmp, k + ".err")) for k in ("ours", "cpython")}
        results = {}

        def go(key, cmd):
            try:
                results[key] = run_to_file(cmd + paths, files[key][0], files[key][1], env)
            except OSError as e:
                results[key] = (None, str(e))

        threads = [threading.Thread(target=go, args=("cpython", theirs_cmd)),
                   threading.Thread(target=go, args=("ours", ours_cmd))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

        (py_rc, py_time), (our_rc, our_time) = results["cpython"], results["ours"]
        if py_rc is None or our_rc is None:
            print("compare_ast: cannot run %s" % (py_time if py_rc is None else our_time), file=sys.stderr)
            return 2
        if py_rc != 0:
            print("compare_ast: CPython's dumper failed (exit %d):\n%s" % (py_rc, tail(files["cpython"][1])),
                  file=sys.stderr)
            return 2
        our_err = tail(files["ours"][1])
        if our_rc not in (0, 1):
            print("compare_ast: warning: %s exited %d:\n%s" % (ours_name, our_rc, our_err), file=sys.stderr)

        theirs_idx = index_sections(files["cpython"][0])
        ours_idx = index_sections(files["ours"][0])
        ours_by_path = {}
        for path, s, e in ours_idx:
            ours_by_path.setdefault(path, (s, e))
        theirs_paths = set(p for p, _, _ in theirs_idx)

        identical = []
        differing = []        # (path, line, ours, theirs)
        rejected = []         # (path, cpython message, our first error or None)
        false_errors = []     # (path, our first error, count)
        missing_ours = []     # CPython dumped it, we printed nothing for it
        with open(files["ours"][0], "rb") as fo, open(files["cpython"][0], "rb") as ft:
            for path, s, e in theirs_idx:
                theirs = read_section(ft, s, e)
                if path not in ours_by_path:
                    missing_ours.append(text(path))
                    continue
                ours = read_section(fo, *ours_by_path[path])
                p = text(path)
                cpy_rejects = bool(theirs) and theirs[0].startswith(SYNTAX_ERROR)
                we_reject = bool(ours) and ours[0].startswith(SYNTAX_ERROR)
                if cpy_rejects:
                    rejected.append((p, text(theirs[0][len(SYNTAX_ERROR):]),
                                     text(ours[0][len(SYNTAX_ERROR):]) if we_reject else None))
                    if not we_reject:
                        line, o, t = first_difference(ours, theirs)
                        differing.append((p, line, o, t))
                elif we_reject:
                    false_errors.append((p, text(ours[0][len(SYNTAX_ERROR):]), len(ours)))
                elif ours == theirs:
                    identical.append(p)
                else:
                    line, o, t = first_difference(ours, theirs)
                    differing.append((p, line, o, t))
        extra_ours = [text(p) for p, _, _ in ours_idx if p not in theirs_paths]

    compared = len(theirs_idx) - len(missing_ours)
    missed = [r for r in rejected if r[2] is None]

    def report(limit):
        out = []
        w = out.append
        w("CPython %s (%s): %.1fs    ours: %s (exit %d): %.1fs"
          % (py_version, python, py_time, ours_name, our_rc, our_time))
        w("files compared:       %d" % compared)
        w("identical:            %d%s" % (len(identical),
                                          " (%.2f%% of compared)" % (100.0 * len(identical) / compared) if compared else ""))
        w("differing:            %d" % len(differing))
        w("CPython rejects:      %d (we reject %d of them too)" % (len(rejected), len(rejected) - len(missed)))
        w("false syntax errors:  %d (we reject, CPython accepts)" % len(false_errors))
        if missing_ours or extra_ours:
            w("files only CPython's dumper printed: %d; only ours printed: %d" % (len(missing_ours), len(extra_ours)))

        def listing(title, rows, fmt):
            if not rows:
                return
            w("")
            w(title)
            shown = rows if limit is None else rows[:limit]
            for r in shown:
                w(fmt(r))
            if len(shown) < len(rows):
                w("  ... and %d more%s" % (len(rows) - len(shown), " (see --report)" if limit is not None else ""))

        listing("differing files (first differing line of the dump):", differing,
                lambda r: "  %s:%d\n    ours:    %s\n    CPython: %s" % r)
        listing("files CPython rejects:", rejected,
                lambda r: "  %s\n    CPython: %s\n    ours:    %s" % (r[0], r[1], ("rejected " + r[2]) if r[2] is not None else "ACCEPTED (should reject)"))
        listing("false syntax errors (CPython accepts these files):", false_errors,
                lambda r: "  %s: %s%s" % (r[0], r[1], " (+%d more)" % (r[2] - 1) if r[2] > 1 else ""))
        listing("only in CPython's output:", missing_ours, lambda r: "  " + r)
        listing("only in our output:", extra_ours, lambda r: "  " + r)
        if our_err and our_rc not in (0, 1):
            w("")
            w("our stderr (last lines):")
            w(our_err)
        ok = not differing and not false_errors and not missing_ours and not extra_ours
        w("")
        w("RESULT: " + ("OK" if ok else "MISMATCH"))
        return "\n".join(out) + "\n", ok

    console, ok = report(args.limit)
    sys.stdout.write(console)
    if args.report:
        full, _ = report(None)
        with open(args.report, "w", encoding="utf-8") as f:
            f.write(full)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
