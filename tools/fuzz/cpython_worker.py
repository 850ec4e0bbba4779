"""CPython's verdict on source files, for tools/fuzz (run by the reference interpreter, 3.13).

Reads one path per line on stdin; for each writes one JSON line:
{"verdict": "accept"|"reject"|"limit", "error": "Type: message", "line": N}
from compile(bytes, name, 'exec', ast.PyCF_ONLY_AST, dont_inherit=True):
- accept: it compiled;
- reject: SyntaxError (IndentationError, TabError...), ValueError (NUL bytes in older
  releases), UnicodeDecodeError / LookupError (an undecodable file or an unknown encoding);
- limit: RecursionError or MemoryError, CPython's resource limits.
"""

import ast
import json
import sys
import warnings

warnings.simplefilter("ignore")  # SyntaxWarnings (invalid escapes...) are not verdicts


def verdict(path):
    with open(path, "rb") as f:
        data = f.read()
    try:
        compile(data, path, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
        return {"verdict": "accept"}
    except (SyntaxError, ValueError, UnicodeDecodeError, LookupError) as e:
        return {"verdict": "reject", "error": "%s: %s" % (type(e).__name__, e),
                "line": getattr(e, "lineno", None)}
    except (RecursionError, MemoryError) as e:
        return {"verdict": "limit", "error": "%s: %s" % (type(e).__name__, e)}


def main():
    for line in sys.stdin:
        path = line.rstrip("\n")
        if not path:
            continue
        try:
            r = verdict(path)
        except Exception as e:  # anything else is CPython's own surprise: recorded, not judged
            r = {"verdict": "limit", "error": "unexpected %s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(r) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
