# PEP 695 / 696 type parameter scopes (Python 3.12+, defaults 3.13).
type Alias = list[int]
type GenericAlias[T] = dict[str, T]
type Bounded[T: (int, str), *Ts, **P] = tuple[T, *Ts]


def generic[T: int, U = str](a: T, b: U = None, *, c: T) -> list[T]:
    return [a, b, c]


def generic_kwdefaults[T](a, *, b=1):
    return a, b


class Container[T, *Ts = (), **P = [int]](Base[T], metaclass=Meta):
    default: T
    type Inner[K] = dict[K, T]

    def method[S: T](self, x: S) -> S:
        return x

    def plain(self, y: T) -> T:
        return y


class Outer:
    Attr = int
    type InClass = Attr
    type GenericInClass[V: Attr] = list[V]

    def method[W: Attr = Attr](self) -> W:
        return super().method()

    class Nested[X: Attr](Attr):
        pass


def factory():
    local = 1

    class Local[T: local]:
        field = local

    type LocalAlias = local
    return Local, LocalAlias


class Comps:
    seed = 3
    type WithComp = [x for x in range(seed)]

    def gen[T: [y for y in seed]](self):
        pass
