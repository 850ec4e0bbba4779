"""The fuzzer's inputs: the seed corpus and the mutations (issue 40).

Every input is a pure function of (run seed, input index) and the seed corpus: ``make_input``
seeds its own ``random.Random`` with the string "SEED:INDEX", picks a seed file and 1-3
mutation kinds, and applies them in order. The same seed corpus (CPython 3.13.0's standard
library, found through that interpreter's sysconfig, plus examples/*.py) therefore regenerates
any input exactly: ``fuzz.py --seed S --only I``.

Stdlib only; runs on any Python 3.8+.
"""

import os
import random
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# ------------------------------------------------------------------ seed corpus


def stdlib_dir(python):
    """The standard library folder of `python` (its sysconfig 'stdlib' path)."""
    out = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
                         check=True, capture_output=True, text=True)
    return Path(out.stdout.strip())


def seed_files(python):
    """Every .py of the interpreter's standard library (site-packages and test data that are not
    Python left out: bad-syntax fixtures stay in, CPython judges them like any input), then the
    repository's examples/*.py; sorted, so that an index names the same file on every machine
    with the same CPython."""
    lib = stdlib_dir(python)
    files = []
    for dirpath, dirnames, filenames in os.walk(lib):
        dirnames[:] = sorted(d for d in dirnames if d not in ("site-packages", "__pycache__"))
        for name in sorted(filenames):
            if name.endswith(".py"):
                files.append(Path(dirpath) / name)
    files.sort()
    files += sorted((ROOT / "examples").glob("*.py"))
    return files


# ------------------------------------------------------------------ helpers


def _lines(data):
    return data.splitlines(keepends=True)


def _pos(rng, data):
    return rng.randrange(len(data) + 1)


def _line_starts(data):
    starts = [0]
    for m in re.finditer(rb"\n", data):
        if m.end() < len(data):
            starts.append(m.end())
    return starts


def _indent_of(line):
    return line[: len(line) - len(line.lstrip(b" \t"))]


def _insert_statement(rng, data, stmt):
    """Inserts the (one-line or multi-line, LF-ended) statement before a random line, with that
    line's indentation on each of its lines."""
    lines = _lines(data)
    if not lines:
        return stmt
    k = rng.randrange(len(lines) + 1)
    ind = _indent_of(lines[k]) if k < len(lines) else b""
    body = b"".join(ind + l for l in _lines(stmt))
    return b"".join(lines[:k]) + body + b"".join(lines[k:])


# ------------------------------------------------------------------ byte and line damage


def byte_flip(rng, d):
    if not d:
        return d
    i = rng.randrange(len(d))
    return d[:i] + bytes([d[i] ^ (1 << rng.randrange(8))]) + d[i + 1:]


def byte_insert(rng, d):
    i = _pos(rng, d)
    b = rng.choice([bytes([rng.randrange(256)]), rng.choice(b"()[]{}:'\"\\#\t \n=.,@*+-!;`$?")
                    .to_bytes(1, "big")])
    return d[:i] + b + d[i:]


def byte_delete(rng, d):
    if not d:
        return d
    i = rng.randrange(len(d))
    n = rng.choice([1, 1, 1, 2, 5])
    return d[:i] + d[i + n:]


def line_delete(rng, d):
    ls = _lines(d)
    if not ls:
        return d
    del ls[rng.randrange(len(ls))]
    return b"".join(ls)


def line_duplicate(rng, d):
    ls = _lines(d)
    if not ls:
        return d
    k = rng.randrange(len(ls))
    ls.insert(k, ls[k] if ls[k].endswith(b"\n") else ls[k] + b"\n")
    return b"".join(ls)


def line_swap(rng, d):
    ls = _lines(d)
    if len(ls) < 2:
        return d
    a = rng.randrange(len(ls))
    b = min(len(ls) - 1, a + rng.choice([1, 1, 2, 5, rng.randrange(len(ls))]))
    ls[a], ls[b] = ls[b], ls[a]
    if not ls[-1].endswith(b"\n") and any(not l.endswith(b"\n") for l in ls[:-1]):
        ls = [l if l.endswith(b"\n") else l + b"\n" for l in ls]
    return b"".join(ls)


def truncate(rng, d):
    return d[:_pos(rng, d)]


def nul_byte(rng, d):
    i = _pos(rng, d)
    return d[:i] + b"\x00" + d[i:]


# ------------------------------------------------------------------ indentation


def indent_tabs_spaces(rng, d):
    """One line, or a run of lines, with tabs for 4/8 spaces or spaces for a tab."""
    ls = _lines(d)
    if not ls:
        return d
    a = rng.randrange(len(ls))
    b = min(len(ls), a + rng.choice([1, 1, 3, 20]))
    width = rng.choice([4, 8])
    for k in range(a, b):
        ind = _indent_of(ls[k])
        if b"\t" in ind:
            new = ind.replace(b"\t", b" " * width)
        else:
            new = ind.replace(b" " * width, b"\t")
        ls[k] = new + ls[k][len(ind):]
    return b"".join(ls)


def indent_dedent(rng, d):
    ls = _lines(d)
    idx = [k for k, l in enumerate(ls) if l[:1] in (b" ", b"\t")]
    if not idx:
        return d
    k = rng.choice(idx)
    n = rng.choice([1, 2, 4])
    ls[k] = ls[k][n:] if ls[k][:n].strip(b" \t") == b"" else ls[k][1:]
    return b"".join(ls)


def formfeed_line_start(rng, d):
    starts = _line_starts(d)
    i = rng.choice(starts)
    return d[:i] + b"\f" * rng.choice([1, 1, 2]) + d[i:]


def formfeed_before_dedent(rng, d):
    """A form feed at the start of a line that is indented less than the line before it."""
    ls = _lines(d)
    cand = [k for k in range(1, len(ls))
            if ls[k].strip() and ls[k - 1].strip()
            and len(_indent_of(ls[k])) < len(_indent_of(ls[k - 1]))]
    if not cand:
        return formfeed_line_start(rng, d)
    k = rng.choice(cand)
    where = rng.choice(["start", "after-indent"])
    ind = _indent_of(ls[k])
    ls[k] = (b"\f" + ls[k]) if where == "start" else (ind + b"\f" + ls[k][len(ind):])
    return b"".join(ls)


# ------------------------------------------------------------------ line endings and BOM


def eol_crlf(rng, d):
    return d.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def eol_cr(rng, d):
    return d.replace(b"\r\n", b"\n").replace(b"\n", b"\r")


def eol_mixed(rng, d):
    ls = _lines(d.replace(b"\r\n", b"\n"))
    out = []
    for l in ls:
        if l.endswith(b"\n"):
            l = l[:-1] + rng.choice([b"\n", b"\r\n", b"\r"])
        out.append(l)
    return b"".join(out)


def bom(rng, d):
    return d if d.startswith(b"\xef\xbb\xbf") else b"\xef\xbb\xbf" + d


# ------------------------------------------------------------------ encodings


def latin1_coding(rng, d):
    """A latin-1 declaration on line 1 or 2, the text re-encoded as latin-1 (characters it lacks
    become '?'), and a latin-1 byte (é, ß, ÿ...) planted in a comment or a string."""
    try:
        text = d.decode("utf-8")
    except UnicodeDecodeError:
        text = d.decode("latin-1")
    body = text.encode("latin-1", "replace")
    decl = rng.choice([b"# -*- coding: latin-1 -*-\n", b"# coding=latin-1\n", b"# vim: set fileencoding=iso-8859-1 :\n"])
    ls = _lines(body)
    if ls and ls[0].startswith(b"#!") and rng.random() < 0.5:
        ls.insert(1, decl)
    else:
        ls.insert(0, decl)
    ch = bytes([rng.choice([0xE9, 0xDF, 0xFF, 0xA7, 0xE4, 0xB5])])
    plant = rng.choice([b"# caf" + ch + b"\n", b"_s = '" + ch + b"'\n"])
    out = b"".join(ls)
    return _insert_statement(rng, out, plant)


def nonutf8_comment(rng, d):
    """Bytes that are not UTF-8 inside a comment (at the end of a line, or a comment line)."""
    bad = rng.choice([b"\xff", b"\xe9", b"\xc3\x28", b"\x80\x81", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80"])
    ls = _lines(d)
    if ls and rng.random() < 0.5:
        k = rng.randrange(len(ls))
        l = ls[k]
        body = l.rstrip(b"\r\n")
        ls[k] = body + b"  # x" + bad + l[len(body):] if l.endswith(b"\n") or l.endswith(b"\r") else body + b"  # x" + bad
        return b"".join(ls)
    return _insert_statement(rng, d, b"# comment " + bad + b" end\n")


def invalid_utf8_string(rng, d):
    bad = rng.choice([b"\xff", b"\xe9", b"\xc3\x28", b"\x80", b"\xed\xa0\x80"])
    q = rng.choice([b"'", b'"', b"b'", b"f'", b'"""'])
    end = q[-1:] * (3 if q == b'"""' else 1)
    return _insert_statement(rng, d, b"_s = " + q + b"x" + bad + b"y" + end + b"\n")


# ------------------------------------------------------------------ unclosed things


def unclosed_bracket(rng, d):
    o = rng.choice([b"(", b"[", b"{"])
    if rng.random() < 0.5:
        return _insert_statement(rng, d, b"_u = f" + o + b"1, 2\n")
    i = _pos(rng, d)
    return d[:i] + o + d[i:]


def unclosed_string(rng, d):
    s = rng.choice([b"'abc\n", b'"abc\n', b"'''abc\n", b'"""abc\n', b"'abc\\\n", b"b'\\x\n", b"r'\\'\n"])
    return _insert_statement(rng, d, b"_u = " + s)


def unclosed_fstring(rng, d):
    s = rng.choice([b"f'{x\n", b"f'{x'\n", b"f\"{x!r\"\n", b"f'{x:{y}'\n", b"f'''{\n", b"f'{'\n",
                    b"f'{x=\n", b"f\"{f'{x'}\n", b"f'{x}{'\n", b"f'{x!}'\n"])
    return _insert_statement(rng, d, b"_u = " + s)


# ------------------------------------------------------------------ deep nesting
# CPython 3.13's limits (measured with 3.13.0, module level): 200 nested brackets ("too many
# nested parentheses"); 100 levels of indentation ("too many levels of indentation"); about
# 9,994 levels of attribute / call / subscript / binary-operator chain (RecursionError during
# ast construction); about 5,966 unary operators (MemoryError: parser stack overflowed). The
# sizes are chosen just below and above each limit, and far above it.

DEPTHS = {
    "brackets": [150, 199, 200, 201, 250, 1000],
    "blocks": [50, 98, 99, 100, 101, 200],
    "attr": [1000, 5000, 9900, 10100, 30000],
    "call": [1000, 5000, 9900, 10100, 30000],
    "subscr": [1000, 9900, 10100],
    "unary": [1000, 5900, 6050, 20000],
    "not": [1000, 5900, 6050],
    "binop": [1000, 5000, 9900, 10100, 50000],
    "lambda": [100, 500, 2000],
}


def _deep_stmt(rng, kind, n):
    if kind == "brackets":
        o, c = rng.choice([(b"(", b")"), (b"[", b"]"), (b"{", b"}"), (b"f(", b")")])
        return b"_d = " + o * n + b"1" + c * n + b"\n"
    if kind == "blocks":
        head = rng.choice([b"if x:", b"for i in y:", b"while z:", b"with a:", b"try:"])
        out = []
        for k in range(n):
            out.append(b" " * k + head + b"\n")
        out.append(b" " * n + b"pass\n")
        if head == b"try:":  # close every try, innermost first
            for k in reversed(range(n)):
                out.append(b" " * k + b"finally:\n" + b" " * (k + 1) + b"pass\n")
        return b"".join(out)
    if kind == "attr":
        return b"_d = a" + b".b" * n + b"\n"
    if kind == "call":
        return b"_d = f" + b"()" * n + b"\n"
    if kind == "subscr":
        return b"_d = a" + b"[0]" * n + b"\n"
    if kind == "unary":
        return b"_d = " + b"".join(rng.choice([b"-", b"+", b"~"]) for _ in range(n)) + b"1\n"
    if kind == "not":
        return b"_d = " + b"not " * n + b"x\n"
    if kind == "binop":
        op = rng.choice([b"+", b"*", b" and ", b" if c else ", b" | ", b"<"])
        return b"_d = 1" + (op + b"1") * n + b"\n"
    if kind == "lambda":
        return b"_d = " + b"lambda: " * n + b"1\n"
    raise ValueError(kind)


NOTES = []  # what the last make_input's mutations chose (depths, sizes), for its record


def _make_deep(kind):
    def mut(rng, d):
        n = rng.choice(DEPTHS[kind])
        NOTES.append("%s depth %d" % (kind, n))
        stmt = _deep_stmt(rng, kind, n)
        if kind == "blocks":  # at module level: indentation counts from column 0
            ls = _lines(d)
            k = rng.randrange(len(ls) + 1)
            while k < len(ls) and ls[k][:1] in (b" ", b"\t"):
                k += 1
            return b"".join(ls[:k]) + stmt + b"".join(ls[k:])
        return _insert_statement(rng, d, stmt)
    mut.__name__ = "deep_" + kind
    return mut


# ------------------------------------------------------------------ huge literals


def huge_literal(rng, d):
    n = rng.choice([1000, 4300, 4301, 10000, 100000, 1000000])
    form = rng.choice(["hex", "dec", "float", "str", "bytes", "fstr", "underscore", "imag"])
    NOTES.append("%s literal of %d" % (form, n))
    if form == "hex":
        lit = b"0x" + b"f" * n
    elif form == "dec":
        lit = b"9" * n
    elif form == "float":
        lit = b"1" * n + b"." + b"5" * rng.choice([1, n])
    elif form == "str":
        lit = b"'" + b"a" * n + b"'"
    elif form == "bytes":
        lit = b"b'" + b"\\x00" * (n // 4 + 1) + b"'"
    elif form == "fstr":
        lit = b"f'" + b"a{x}" * (n // 4 + 1) + b"'"
    elif form == "underscore":
        lit = b"1" + b"_0" * (n // 2)
    else:
        lit = b"1" * n + b"j"
    return _insert_statement(rng, d, b"_h = " + lit + b"\n")


# ------------------------------------------------------------------ torch plants
# Snippets from the GM1xx and GM2xx rule pages (docs/rules/): each breaks the graph in a compile root,
# and most have a fix, so that `fix` rewrites something in the planted file.

TORCH_SNIPPETS = [
    b"""@torch.compile
def _gm_probs(scores):
    if scores.max() > 1e4:
        scores = scores - scores.amax(dim=-1, keepdim=True)
    return scores.softmax(dim=-1)
""",
    b"""@torch.compile
def _gm_log(x):
    y = x * 2
    print("max:", y.max())
    logging.getLogger(__name__).info("y %s", y)
    return y
""",
    b"""@torch.compile
def _gm_guard(input_ids):
    if (input_ids < 0).any():
        raise ValueError("input_ids must not contain negative token ids")
    return input_ids + 1
""",
    b"""@torch.compile
def _gm_item(logits, labels):
    active = labels != -100
    num_tokens = active.sum().item()
    return logits.sum() / max(num_tokens, 1)
""",
    b"""class _GmBlock(torch.nn.Module):
    def forward(self, hidden_states):
        if torch.isnan(hidden_states).any():
            raise ValueError("hidden_states contains NaN values")
        print("shape", hidden_states)
        if hidden_states.sum() > 0:
            hidden_states = hidden_states * 2
        else:
            hidden_states = hidden_states - 1
        return hidden_states
""",
    # shapes a rewrite must keep valid: one-line bodies, semicolons, comments after colons,
    # backslash continuations, tabs, elif chains, nested blocks, print keywords
    b"""@torch.compile
def _gm_oneline(x):
    if x.sum() > 0: x = x * 2
    print("v", x, sep=", ", end="\\n"); y = x + 1
    return y
""",
    b"""@torch.compile
def _gm_tabs(x):
	if x.max() > 1:  # clamp
		x = x / \
			x.max()
	elif x.min() < -1:
		x = -x
	return x
""",
    b"""@torch.compile
def _gm_nested(x, flag):
    for _ in range(2):
        if flag:
            if (x < 0).any():
                raise RuntimeError(f"negative: {x}")
            logging.warning("x=%s", x)
    while x.sum() > 10:
        x = x / 2
    return x
""",
    b"""class _GmModel(torch.nn.Module):
    @property
    def scale(self):
        return 2.0

    def forward(self, x):
        n = int(x.sum().item()); print(n)
        if x.norm() > self.scale:  # a comment
            return x / x.norm()
        return x
""",
    b"""@torch.compile
def _gm_where(x, y):
    if x.mean() > 0:
        out = x + y
    else:
        out = x - y
    return out
""",
]


def plant_torch(rng, d):
    """`import torch, logging` at the top (after a docstring-less start: before the first line
    that begins a statement at column 0 is good enough) and 1-2 breaking snippets between
    top-level statements."""
    ls = _lines(d)
    if ls and not ls[-1].endswith((b"\n", b"\r")):
        ls[-1] += b"\n"
    tops = [k for k, l in enumerate(ls)
            if re.match(rb"(def |class |@|import |from |if __name__)", l)]
    imp = b"import torch\nimport logging\n"
    for _ in range(rng.choice([1, 1, 2])):
        snip = rng.choice(TORCH_SNIPPETS)
        k = rng.choice(tops + [len(ls)])
        ls.insert(k, b"\n" + snip + b"\n")
    # the import before the first top-level import/def (after `from __future__`)
    first = next((k for k, l in enumerate(ls)
                  if re.match(rb"(def |class |@|import |from (?!__future__))", l)), len(ls))
    ls.insert(first, imp)
    return b"".join(ls)


# ------------------------------------------------------------------ the table

MUTATIONS = {f.__name__: f for f in [
    byte_flip, byte_insert, byte_delete, line_delete, line_duplicate, line_swap,
    indent_tabs_spaces, indent_dedent, formfeed_line_start, formfeed_before_dedent,
    eol_crlf, eol_cr, eol_mixed, bom, latin1_coding, nonutf8_comment, invalid_utf8_string,
    nul_byte, truncate, unclosed_bracket, unclosed_string, unclosed_fstring, huge_literal,
    plant_torch,
] + [_make_deep(k) for k in DEPTHS]}

# Relative weights: the damage that finds parser bugs most often, deep nesting and huge literals
# less (they make big inputs, slow for both parsers).
WEIGHTS = {name: 10 for name in MUTATIONS}
WEIGHTS.update({"byte_flip": 14, "byte_insert": 14, "byte_delete": 14, "truncate": 8, "nul_byte": 4,
                "huge_literal": 5, "plant_torch": 8, "bom": 5, "eol_cr": 6, "eol_mixed": 6})
for k in DEPTHS:
    WEIGHTS["deep_" + k] = 3

# Mutations that keep a file CPython accepts acceptable (mostly): combined with plant_torch they
# make the inputs `fix` is tried on.
BENIGN = ["eol_crlf", "eol_cr", "eol_mixed", "bom", "latin1_coding", "formfeed_line_start", "indent_tabs_spaces"]

MAX_SEED_BYTES = 200_000


def make_input(run_seed, index, seeds):
    """(bytes, record) of input `index` of run `run_seed`."""
    rng = random.Random("%s:%d" % (run_seed, index))
    seed_path = seeds[rng.randrange(len(seeds))]
    data = seed_path.read_bytes()[:MAX_SEED_BYTES]
    names = sorted(MUTATIONS)
    del NOTES[:]
    if rng.random() < 0.15:
        # a torch file fix should rewrite: the plant, maybe one benign mutation
        kinds = ["plant_torch"] + ([rng.choice(BENIGN)] if rng.random() < 0.5 else [])
    else:
        n = rng.choice([1, 1, 2, 3])
        kinds = rng.choices(names, weights=[WEIGHTS[k] for k in names], k=n)
        if "plant_torch" in kinds:  # planted first, then damaged
            kinds.remove("plant_torch")
            kinds.insert(0, "plant_torch")
    for k in kinds:
        data = MUTATIONS[k](rng, data)
    try:
        rel = str(seed_path.relative_to(ROOT))
    except ValueError:
        rel = str(seed_path)
    return data, {"index": index, "seed": "%s:%d" % (run_seed, index), "seed_file": rel, "kinds": kinds, "notes": list(NOTES)}
