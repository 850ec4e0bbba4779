# Def-use fixtures. Each case starts with a "#== title" line; the code follows (its first def is
# analysed), then one "# L<line> <name> <- <definitions>" line per read, in the order DefUse.uses()
# lists them, each definition as "L<line> <KIND>". Valid Python; every expectation was checked by hand.

#== branches and a loop: every definition that some path carries to the read
def f(a):
    x = 0
    if a:
        x = 1
    while x < a:
        x += 1
    return x
# L3 a <- L1 PARAMETER
# L5 x <- L2 ASSIGN, L4 ASSIGN, L6 AUG_ASSIGN
# L5 a <- L1 PARAMETER
# L6 x <- L2 ASSIGN, L4 ASSIGN, L6 AUG_ASSIGN
# L7 x <- L2 ASSIGN, L4 ASSIGN, L6 AUG_ASSIGN
#== walrus: certain for the later operand, possible after the expression (tests are not correlated with their branches); comprehension variables stay inside
def f(items, limit):
    n = 0
    if limit and (n := len(items)) > limit and n > 2:
        print(n)
    ys = [n * y for y in items if (last := y)]
    return n, last, ys, y
# L3 limit <- L1 PARAMETER
# L3 len <- nothing
# L3 items <- L1 PARAMETER
# L3 limit <- L1 PARAMETER
# L3 n <- L3 WALRUS
# L4 print <- nothing
# L4 n <- L2 ASSIGN, L3 WALRUS
# L5 items <- L1 PARAMETER
# L5 n <- L2 ASSIGN, L3 WALRUS
# L6 n <- L2 ASSIGN, L3 WALRUS
# L6 last <- L5 WALRUS
# L6 ys <- L5 ASSIGN
# L6 y <- nothing
#== except-as: the name is deleted when the handler ends; del kills
def f():
    try:
        e = 1
        r = g()
    except ValueError as e:
        r = e
    del r
    return e, r
# L4 g <- nothing
# L5 ValueError <- nothing
# L6 e <- L5 EXCEPT_NAME
# L8 e <- L3 ASSIGN
# L8 r <- nothing
#== match: a failed pattern may have bound its captures; an or-pattern binds through one alternative
def f(p):
    x = None
    match p:
        case [x, _]:
            pass
        case (1 as x) | (2 as x):
            pass
        case _:
            pass
    return x
# L3 p <- L1 PARAMETER
# L10 x <- L2 ASSIGN, L4 MATCH_CAPTURE, L6 MATCH_CAPTURE, L6 MATCH_CAPTURE
#== imports, nested def and class, with-as and for targets, parameters
def f(path, *rest):
    import os.path as osp, sys
    from json import loads as parse
    def helper(v=path):
        return v
    class C(Base):
        pass
    with open(osp.join(path, *rest)) as fh:
        for line in fh:
            data = parse(line)
    return helper, C, data, sys, line
# L4 path <- L1 PARAMETER
# L6 Base <- nothing
# L8 open <- nothing
# L8 osp <- L2 IMPORT
# L8 path <- L1 PARAMETER
# L8 rest <- L1 PARAMETER
# L9 fh <- L8 WITH_TARGET
# L10 parse <- L3 IMPORT
# L10 line <- L9 FOR_TARGET
# L11 helper <- L4 FUNCTION
# L11 C <- L6 CLASS
# L11 data <- L10 ASSIGN
# L11 sys <- L2 IMPORT
# L11 line <- L9 FOR_TARGET
#== finally copies: each route carries its own definitions through the finally body
def f(items):
    for i in items:
        try:
            if i:
                continue
            x = i
        finally:
            y = x
    return y
# L2 items <- L1 PARAMETER
# L4 i <- L2 FOR_TARGET
# L6 i <- L2 FOR_TARGET
# L8 x <- L6 ASSIGN
# L9 y <- L8 ASSIGN
#== exceptions: a handler sees the definitions made before the statement that raised
def f():
    a = 1
    try:
        a = 2
        b = g(a)
        a = 3
    except Exception:
        return a, b
    return a
# L5 g <- nothing
# L5 a <- L4 ASSIGN
# L7 Exception <- nothing
# L8 a <- L2 ASSIGN, L4 ASSIGN, L6 ASSIGN
# L8 b <- L5 ASSIGN
# L9 a <- L6 ASSIGN
#== dead code reads nothing; names only (global is the symbol tables' business)
def f():
    global counter
    counter = 1
    return counter
    print(counter)
# L4 counter <- L3 ASSIGN
# L5 print <- nothing
# L5 counter <- nothing
