# Statements and expressions of Python 3.8-3.13.
import os, sys as system
import os.path as osp
from . import sibling
from .. import parent
from ...pkg.mod import (a as b, c,)
from __future__ import annotations
from os import *

x: int = 1
y: "list[int]"
(z): int = 2
obj.attr: int
a = b = c = 1
a, *rest = [1, 2, 3]
[p, (q, r)] = 1, (2, 3)
x += 1; x -= 1; x *= 2; x @= m; x /= 2; x //= 2; x %= 2; x **= 2
x >>= 1; x <<= 1; x &= 1; x |= 1; x ^= 1
del a, b[0], c.d
del (e, f), [g]
assert x, "message"
global_var = lambda: (yield)

def positional(a, b, /, c, d=1, *args, e, f=2, **kwargs) -> None:
    global x
    nonlocal_free = 1
    def inner():
        nonlocal nonlocal_free
        nonlocal_free += 1
    return a, b, *args

def only_star(*, key): pass
def only_slash(a, /): pass
lam = lambda a, /, b=1, *c, d, e=2, **f: a + b
lam2 = lambda *, k: k
lam3 = lambda: 0

@decorator
@decorator.attr(arg)[0]
@(lambda f: f)
@x if y else z
class Klass(Base, metaclass=Meta, **kw):
    """Docstring."""
    attr: int = 0

    @property
    def method(self): return self.attr

    async def coro(self):
        await self.other()
        async with ctx() as c, other() as d:
            pass
        async for i in aiter():
            yield i
        return [i async for i in aiter() if await i]

for i, j in pairs:
    if i: continue
    elif j: break
    else: pass
else:
    pass

while (n := next(it)) is not None:
    pass
else:
    pass

try:
    pass
except ValueError as e:
    raise RuntimeError("x") from e
except (TypeError, KeyError):
    raise
except:
    pass
else:
    pass
finally:
    pass

try:
    pass
except* ValueError as eg:
    pass
except* (TypeError, KeyError):
    pass

with open(f) as g, open(h) as (i, j):
    pass
with (open(f) as g, open(h) as i,):
    pass
with (a, b):
    pass
with (a, b) as c:
    pass
with (yield_ := a):
    pass

match command.split():
    case [action]:
        pass
    case [action, obj]:
        pass
    case Point(x=0, y=0) | Point(1, 2):
        pass
    case {"x": x, "y": y, **rest}:
        pass
    case [1, 2, *others] if others:
        pass
    case (1 | 2 | 3) as num:
        pass
    case -1 | 1.5 | -2j | 1 + 2j | -1 - 2j | "s" "t" | b"b" | None | True | False:
        pass
    case Color.RED | mod.Color.GREEN:
        pass
    case (a, b, *_):
        pass
    case ():
        pass
    case []:
        pass
    case {}:
        pass
    case {mod.KEY: value}:
        pass
    case str() | bytes():
        pass
    case _:
        pass

match a, *b:
    case x, y:
        pass

# soft keywords as names
match = 1
case = 2
type = 3
_ = match + case + type
match(x)
match[1]
match.attr = 4
print(type(match))

type Alias = int
type Generic[T] = list[T]
type Bounded[T: int, *Ts, **P] = tuple[T, *Ts]
type Defaults[T = int, *Ts = *tuple[int], **P = [int]] = T

class GenericClass[T: (int, str), U = str](Base[T]):
    def method[V](self, v: V) -> T | V: ...

def generic_func[T, *Ts, **P](x: T, *args: *Ts) -> T: ...

# expressions
e1 = not a and b or c
e2 = a if b else c if d else e
e3 = a < b <= c == d != e > f >= g in h not in i is j is not k
e4 = a | b ^ c & d << e >> f + g - h * i @ j / k // l % m ** -n ** ~o
e5 = -1 + +2 - ~3
e6 = a[1:2, ::3, :, 4:, :5:6, ...]
e7 = a[*b] ; e7b = a[*b, c] ; e7c = a[b:=1]
e8 = f(a, *b, c=1, **d) ; f(*a, *b, **c, **d) ; f(x for x in y)
e9 = {**a, 'b': 1, **c} ; {*a, *b} ; {a: b for a, b in c} ; {a for a in b if a if not b}
e10 = [x for x in y for z in x if z] ; (x async for x in y)
e11 = (1,) ; () ; (1) ; (yield) ; [*a, *b] ; 1 if x else 2
e12 = 0x_FF + 0o_17 + 0b_1010 + 1_000_000 + 1.5e-3 + 1_0.0_1e1_0 + .5 + 5. + 3j + 3.5J + 0e0
e13 = a.b.c(d).e[f](g)
e14 = await_ = ...
e15 = x if (y := 1) else (z := 2)
e16 = [(y := f(x)), y**2]
print(*args, sep='', **kw)
x = yield_from = None

# accepted by CPython's parser (the compiler rejects some of these later)
*starred_alone = 1
for *a in b: pass
with a as *b: pass
f"{*a}"
f(a=1, a=2)
def dup(a, a): pass
*a, *b = c
nonlocal_at_module = 1
