# Binding constructs: for/with/except targets, match captures, imports, annotations.
import os
import os.path
import xml.etree.ElementTree as ET
from collections import OrderedDict as OD, deque
from . import sibling
from .. import parent_thing
from .pkg.mod import helper as h
from os.path import *

count: int = 0
declared_only: str
(parenthesised): int = 1
obj.attr: int = 2
items[0]: int = 3


def annotated(a: int, b: "str" = "x", *args: float, key: bytes = b"", **kw: dict) -> list:
    local: int = 1
    bare: str
    return [a, b, args, key, kw, local]


def targets(seq, ctx):
    for i, (j, *rest) in enumerate(seq):
        pass
    else:
        tail = i
    with ctx as c, ctx as (d, e):
        pass
    try:
        pass
    except ValueError as err:
        pass
    try:
        pass
    except* TypeError as group:
        pass
    seq[i], obj.field = j, rest
    total = 0
    total += 1
    return tail, c, d, e


def matching(command):
    match command:
        case ["go", direction]:
            return direction
        case ["drop", *objects]:
            return objects
        case {"x": px, **others}:
            return px, others
        case Point(x=0, y=yy) as point:
            return yy, point
        case Point(a, b) | [a, b]:
            return a, b
        case str() | bytes() as text if text:
            return text
        case Color.RED:
            return None
        case _:
            return wildcard_default


class Point:
    x: int
    y: int = 0
