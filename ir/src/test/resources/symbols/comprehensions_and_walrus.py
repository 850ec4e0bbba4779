# Comprehension scopes (PEP 709 inlines list/set/dict ones), generator expressions, walrus.
data = [1, 2, 3]
squares = [x * x for x in data]
pairs = {k: v for k, v in zip(data, data) if k}
unique = {x for x in data for y in range(x)}
gen = (x for x in data if x)
total = sum(x for x in data)
[last := x for x in data]
nested = [[a * b for a in data] for b in data]


def in_function(items):
    if any((hit := x) > 1 for x in items):
        return hit
    result = [y := item for item in items]
    cells = [lambda: i for i in items]
    keyed = {(lambda: k): (lambda: v) for k, v in items}
    inner = [[z for z in range(n)] for n in items]
    return result, y, cells, keyed, inner


def walrus_global():
    global found
    [found := x for x in range(3)]


def walrus_in_lambda():
    return lambda seq: [(w := s) for s in seq] and w


def comp_shadows_local():
    x = 'outer'
    r = [x for x in range(3)]
    return x, r


def free_from_comp():
    base = 10
    return [base + i for i in range(3)], (base + j for j in range(3))


def nested_gen_in_listcomp(rows):
    return [list(c for c in row) for row in rows]


async def async_comps(source):
    a = [x async for x in source]
    b = [await x for x in source]
    return a, b


class WithComprehensions:
    factor = 2
    doubled = [factor * v for v in range(3)]
    mixed = [v for v in range(factor)]

    def method(self):
        return [super().method() for _ in range(2)], [__class__ for _ in range(1)]

    gen = (q for q in range(3))
