"""Module docstring before the future import."""
from __future__ import annotations

import typing

x: Unknown = 1
y: typing.List[int]


def f(a: LaterDefined, *b: Other, c: Third = None) -> ReturnType:
    local: InBody = a
    return local


class C:
    field: C
    other: list[C] = []

    def m(self, arg: Arg) -> C:
        return self


def generic[T: Bound](v: T) -> T:
    return v
