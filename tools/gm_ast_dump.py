#!/usr/bin/env python3
"""CPython's side of the gm-ast-v1 format (docs/gm-ast-v1.md).

Usage: gm_ast_dump.py PATH...   (folders expand recursively to *.py files in sorted order)

Each file is read as bytes and handed to ast.parse, so the coding declaration and a BOM are
handled exactly as CPython handles them. Output per file: a line "== PATH", then one line per
positioned node "DEPTH TYPE L:C-EL:EC [DETAIL]", or "! syntax error L:C message" lines.
"""
import ast
import os
import sys
import warnings

POSITIONED = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def detail(node):
    name = type(node).__name__
    if name == "Name":
        return node.id
    if name == "Attribute":
        return node.attr
    if name in ("FunctionDef", "AsyncFunctionDef", "ClassDef", "alias"):
        return node.name
    if name == "arg":
        return node.arg
    if name == "keyword":
        return node.arg if node.arg is not None else "**"
    if name == "Constant":
        return type(node.value).__name__
    return None


def dump(node, depth, out):
    positioned = all(hasattr(node, a) for a in POSITIONED) and getattr(node, "lineno", None) is not None
    child_depth = depth
    if positioned:
        line = "%d %s %d:%d-%d:%d" % (depth, type(node).__name__, node.lineno, node.col_offset,
                                      node.end_lineno, node.end_col_offset)
        d = detail(node)
        if d is not None:
            line += " " + d
        out.append(line)
        child_depth = depth + 1
    for field in node._fields:
        value = getattr(node, field, None)
        if isinstance(value, ast.AST):
            dump(value, child_depth, out)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, ast.AST):
                    dump(item, child_depth, out)


def expand(paths, skip_dirs=()):
    """Files given, and folders expanded recursively to their *.py files in sorted order."""
    for p in paths:
        if os.path.isdir(p):
            found = []
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if d not in skip_dirs)
                for f in files:
                    if f.endswith(".py"):
                        found.append(os.path.join(root, f))
            yield from sorted(found)
        else:
            yield p


def error_line(kind, e):
    """A `! KIND L:C message` line for a SyntaxError (or ValueError) CPython raised."""
    line = getattr(e, "lineno", None) or 0
    col = getattr(e, "offset", None) or 0
    msg = getattr(e, "msg", None) or str(e)
    return "! %s %d:%d %s" % (kind, line, col, msg)


def print_dumps(paths, dump_file, skip_dirs=()):
    sys.setrecursionlimit(100000)
    w = sys.stdout.write
    for path in expand(paths, skip_dirs):
        w("\n".join(dump_file(path)))
        w("\n")


def dump_file(path):
    with open(path, "rb") as f:
        data = f.read()
    out = ["== " + path]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(data, filename=path)
    except (SyntaxError, ValueError) as e:
        out.append(error_line("syntax error", e))
        return out
    dump(tree, 0, out)
    return out


def main(argv):
    print_dumps(argv, dump_file)


if __name__ == "__main__":
    main(sys.argv[1:])
