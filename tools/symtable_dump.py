#!/usr/bin/env python3
"""CPython's side of the symbol-table oracle (the `gm-symtable-v1` format).

Usage: symtable_dump.py PATH...   (folders expand recursively to *.py files in sorted order;
                                   folders named site-packages are skipped)

Run it under the reference CPython (3.13). Each file is read as bytes and handed to
symtable.symtable(source, path, 'exec'), so coding declarations and a BOM are handled exactly as
CPython handles them. Output per file: a line "== PATH", then every symbol table depth-first, in
the order symtable's get_children() gives them:

    DEPTH TYPE NAME LINENO
      IDENT SCOPE FLAG,FLAG,...

TYPE is symtable's table type with spaces as underscores (module, function, class, annotation,
type_alias, type_parameters, type_variable). The identifiers of a table follow it, one per line,
sorted by code point, indented by two spaces. SCOPE is the resolved scope (local, cell, free,
global_explicit, global_implicit). FLAGS are the raw definition flags CPython keeps for the name,
in this fixed order, or "-" when there are none:

    param       DEF_PARAM       is_parameter()
    assigned    DEF_LOCAL       is_assigned()
    referenced  USE             is_referenced()
    imported    DEF_IMPORT      is_imported()
    annotated   DEF_ANNOT       is_annotated()
    global      DEF_GLOBAL      a `global` statement (is_declared_global() is SCOPE)
    nonlocal    DEF_NONLOCAL    is_nonlocal()
    free_class  DEF_FREE_CLASS  a class/annotation scope whose name is also free in a child
    comp_iter   DEF_COMP_ITER   a comprehension's iteration target
    type_param  DEF_TYPE_PARAM  a PEP 695 type parameter
    comp_cell   DEF_COMP_CELL   a cell of an inlined (PEP 709) comprehension

A file that does not parse gets "! syntax error L:C message"; one that parses but that symtable
rejects (a bad nonlocal, a misplaced star import, ...) gets "! symtable error L:C message".
"""
import ast
import os
import symtable
import sys
import warnings

import _symtable

from gm_ast_dump import error_line, print_dumps  # same folder: one expansion, one error format

SCOPES = {
    _symtable.LOCAL: "local",
    _symtable.CELL: "cell",
    _symtable.FREE: "free",
    _symtable.GLOBAL_EXPLICIT: "global_explicit",
    _symtable.GLOBAL_IMPLICIT: "global_implicit",
}

# (name, bit) in output order. The last three bits are not exported by _symtable.
FLAGS = (
    ("param", _symtable.DEF_PARAM),
    ("assigned", _symtable.DEF_LOCAL),
    ("referenced", _symtable.USE),
    ("imported", _symtable.DEF_IMPORT),
    ("annotated", _symtable.DEF_ANNOT),
    ("global", _symtable.DEF_GLOBAL),
    ("nonlocal", _symtable.DEF_NONLOCAL),
    ("free_class", _symtable.DEF_FREE_CLASS),
    ("comp_iter", 2 << 8),
    ("type_param", 2 << 9),
    ("comp_cell", 2 << 10),
)
KNOWN_BITS = 0
for _, bit in FLAGS:
    KNOWN_BITS |= bit

SCOPE_OFF = _symtable.SCOPE_OFF
SCOPE_MASK = _symtable.SCOPE_MASK


def describe(flags):
    scope = (flags >> SCOPE_OFF) & SCOPE_MASK
    raw = flags & ((1 << SCOPE_OFF) - 1)
    names = [name for name, bit in FLAGS if raw & bit]
    unknown = raw & ~KNOWN_BITS
    if unknown:
        names.append("0x%x" % unknown)
    return "%s %s" % (SCOPES.get(scope, "scope%d" % scope), ",".join(names) or "-")


def dump_table(table, depth, out):
    raw = table._table
    out.append("%d %s %s %d" % (depth, str(table.get_type()).replace(" ", "_"), raw.name, raw.lineno))
    symbols = raw.symbols
    for ident in sorted(symbols):
        out.append("  %s %s" % (ident, describe(symbols[ident])))
    for child in table.get_children():
        dump_table(child, depth + 1, out)


def dump_file(path):
    with open(path, "rb") as f:
        data = f.read()
    out = ["== " + path]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ast.parse(data, filename=path)
        except (SyntaxError, ValueError) as e:
            out.append(error_line("syntax error", e))
            return out
        try:
            top = symtable.symtable(data, path, "exec")
        except (SyntaxError, ValueError) as e:
            out.append(error_line("symtable error", e))
            return out
    dump_table(top, 0, out)
    return out


def main(argv):
    print_dumps(argv, dump_file, skip_dirs=("site-packages",))


if __name__ == "__main__":
    main(sys.argv[1:])
