# Control-flow graph fixtures. Each case starts with a "#== title" line; the code follows, then the
# expected graph as "# B..." comment lines (the text form of ControlFlowGraph.dump). The graph is
# the first def/class of the case, its first lambda when the title starts with "lambda:", or the
# module when it starts with "module:". The file is valid Python; every expectation was checked by hand.

#== straight line falls off the end into the exit
def f(a, *args, k=1, **kw):
    x = a
    print(x)
# B0 entry: params a, *args, k, **kw -> B1
# B1: x = a | print(x) -> B2
# B2 exit
# B3 raise-exit unreachable
#== if/else joins after both branches
def f(a):
    x = 1
    if a:
        x = 2
    else:
        x = 3
    return x
# B0 entry: params a -> B1
# B1: x = 1 | if a -> B2 [TRUE], B3 [FALSE]
# B2: x = 2 -> B4
# B3: x = 3 -> B4
# B4: return x -> B5 [RETURN]
# B5 exit
# B6 raise-exit unreachable
#== elif chain: each elif tests in the previous test's FALSE block
def f(a):
    if a == 1:
        r = "one"
    elif a == 2:
        r = "two"
    elif a == 3:
        return None
    else:
        r = "many"
    return r
# B0 entry: params a -> B1
# B1: if a == 1 -> B2 [TRUE], B3 [FALSE]
# B2: r = "one" -> B8
# B3: if a == 2 -> B4 [TRUE], B5 [FALSE]
# B4: r = "two" -> B8
# B5: if a == 3 -> B6 [TRUE], B7 [FALSE]
# B6: return None -> B9 [RETURN]
# B7: r = "many" -> B8
# B8: return r -> B9 [RETURN]
# B9 exit
# B10 raise-exit unreachable
#== an if without else at the end of a function: the FALSE edge goes straight to the exit
def f(a):
    if a:
        print(a)
# B0 entry: params a -> B1
# B1: if a -> B2 [TRUE], B3 [FALSE]
# B2: print(a) -> B3
# B3 exit
# B4 raise-exit unreachable
#== while/else with break and continue: break skips the else
def f(a):
    while a > 0:
        a -= 1
        if a == 5:
            break
        if a % 2:
            continue
        print(a)
    else:
        print("exhausted")
    return a
# B0 entry: params a -> B1
# B1: while a > 0 -> B2 [TRUE], B7 [FALSE]
# B2: a -= 1 | if a == 5 -> B3 [TRUE], B4 [FALSE]
# B3: break -> B8 [BREAK]
# B4: if a % 2 -> B5 [TRUE], B6 [FALSE]
# B5: continue -> B1 [CONTINUE]
# B6: print(a) -> B1 [LOOP_BACK]
# B7: print("exhausted") -> B8
# B8: return a -> B9 [RETURN]
# B9 exit
# B10 raise-exit unreachable
#== for/else: iterable evaluated once, head takes next item (TRUE) or is exhausted (FALSE)
def f(xs):
    for x in xs:
        if x:
            break
    else:
        x = None
    return x
# B0 entry: params xs -> B1
# B1: iter xs -> B2
# B2: next -> B3 [TRUE], B6 [FALSE]
# B3: bind x | if x -> B4 [TRUE], B5 [FALSE]
# B4: break -> B7 [BREAK]
# B5: -> B2 [LOOP_BACK]
# B6: x = None -> B7
# B7: return x -> B8 [RETURN]
# B8 exit
# B9 raise-exit unreachable
#== constant tests: while True has no FALSE edge, if False has no TRUE edge
def f():
    while True:
        if False:
            print("never")
        x = g()
        if x:
            break
    return x
# B0 entry: -> B1
# B1: while True -> B2 [TRUE]
# B2: if False -> B4 [FALSE]
# B3 unreachable: print("never") -> B4
# B4: x = g() | if x -> B5 [TRUE], B6 [FALSE]
# B5: break -> B7 [BREAK]
# B6: -> B1 [LOOP_BACK]
# B7: return x -> B8 [RETURN]
# B8 exit
# B9 raise-exit unreachable
#== nested loops: break and continue bind to the innermost loop
def f(rows):
    for row in rows:
        for cell in row:
            if cell is None:
                break
            if cell == 0:
                continue
            use(cell)
        else:
            continue
        print(row)
# B0 entry: params rows -> B1
# B1: iter rows -> B2
# B2: next -> B3 [TRUE], B12 [FALSE]
# B3: bind row | iter row -> B4
# B4: next -> B5 [TRUE], B10 [FALSE]
# B5: bind cell | if cell is None -> B6 [TRUE], B7 [FALSE]
# B6: break -> B11 [BREAK]
# B7: if cell == 0 -> B8 [TRUE], B9 [FALSE]
# B8: continue -> B4 [CONTINUE]
# B9: use(cell) -> B4 [LOOP_BACK]
# B10: continue -> B2 [CONTINUE]
# B11: print(row) -> B2 [LOOP_BACK]
# B12 exit
# B13 raise-exit unreachable
#== statements after return, raise, break and continue are kept, unreachable
def f(a):
    while a:
        break
        print("after break")
    if a:
        return 1
        print("after return")
    raise ValueError(a)
    print("after raise")
# B0 entry: params a -> B1
# B1: while a -> B2 [TRUE], B4 [FALSE]
# B2: break -> B4 [BREAK]
# B3 unreachable: print("after break") -> B1 [LOOP_BACK]
# B4: if a -> B5 [TRUE], B7 [FALSE]
# B5: return 1 -> B9 [RETURN]
# B6 unreachable: print("after return") -> B7
# B7: raise ValueError(a) -> B10 [EXCEPTION]
# B8 unreachable: print("after raise") -> B9
# B9 exit
# B10 raise-exit
#== assert: the FALSE edge goes to the raise exit; assert False has only that edge
def f(a):
    assert a > 0, "positive"
    if a > 10:
        assert False
    return a
# B0 entry: params a -> B1
# B1: assert a > 0, "positive" -> B2 [TRUE], B6 [FALSE]
# B2: if a > 10 -> B3 [TRUE], B4 [FALSE]
# B3: assert False -> B6 [FALSE]
# B4: return a -> B5 [RETURN]
# B5 exit
# B6 raise-exit
#== try/except/else/finally: every statement of the body may raise; one finally copy per exit route
def f(a):
    try:
        x = g(a)
        if x:
            return x
    except ValueError as e:
        x = 0
    except (TypeError, KeyError):
        raise
    else:
        x += 1
    finally:
        close()
    return x
# B0 entry: params a -> B1
# B1: x = g(a) | if x -> B2 [TRUE], B9 [FALSE], B3 [EXCEPTION]
# B2: return x -> B11 [RETURN], B3 [EXCEPTION]
# B3: except? ValueError -> B4 [TRUE], B7 [FALSE], B12 [EXCEPTION]
# B4: caught as e | x = 0 -> B5, B6 [EXCEPTION]
# B5: unbind e -> B10
# B6: unbind e -> B12 [EXCEPTION]
# B7: except? (TypeError, KeyError) -> B8 [TRUE], B12 [FALSE], B12 [EXCEPTION]
# B8: caught | raise -> B12 [EXCEPTION]
# B9: x += 1 -> B10, B12 [EXCEPTION]
# B10: close() -> B13
# B11: close() -> B14 [RETURN]
# B12: close() -> B15 [EXCEPTION]
# B13: return x -> B14 [RETURN]
# B14 exit
# B15 raise-exit
#== a bare except catches everything: no re-raise edge from the handler chain
def f():
    try:
        g()
    except OSError:
        h()
    except:
        pass
    print("done")
# B0 entry: -> B1
# B1: g() -> B5, B2 [EXCEPTION]
# B2: except? OSError -> B3 [TRUE], B4 [FALSE]
# B3: caught | h() -> B5
# B4: caught | pass -> B5
# B5: print("done") -> B6
# B6 exit
# B7 raise-exit unreachable
#== try/finally whose body always returns: the normal finally copy and what follows are dead
def f():
    try:
        return g()
    finally:
        print("cleanup")
    print("unreachable")
# B0 entry: -> B1
# B1: return g() -> B3 [RETURN], B4 [EXCEPTION]
# B2 unreachable: print("cleanup") -> B5
# B3: print("cleanup") -> B6 [RETURN]
# B4: print("cleanup") -> B7 [EXCEPTION]
# B5 unreachable: print("unreachable") -> B6
# B6 exit
# B7 raise-exit
#== break and continue inside try/finally pass through their own copies of the finally body
def f(items):
    for item in items:
        try:
            if item is None:
                break
            if not item:
                continue
            process(item)
        finally:
            done(item)
    return 0
# B0 entry: params items -> B1
# B1: iter items -> B2
# B2: next -> B3 [TRUE], B13 [FALSE]
# B3: bind item -> B4
# B4: if item is None -> B5 [TRUE], B6 [FALSE], B12 [EXCEPTION]
# B5: break -> B10 [BREAK]
# B6: if not item -> B7 [TRUE], B8 [FALSE], B12 [EXCEPTION]
# B7: continue -> B11 [CONTINUE]
# B8: process(item) -> B9, B12 [EXCEPTION]
# B9: done(item) -> B2 [LOOP_BACK]
# B10: done(item) -> B13 [BREAK]
# B11: done(item) -> B2 [CONTINUE]
# B12: done(item) -> B15 [EXCEPTION]
# B13: return 0 -> B14 [RETURN]
# B14 exit
# B15 raise-exit
#== nested try/finally: a return runs both finally bodies, inner first
def f():
    try:
        try:
            return g()
        finally:
            inner()
    finally:
        outer()
# B0 entry: -> B1
# B1: -> B2
# B2: return g() -> B4 [RETURN], B5 [EXCEPTION]
# B3 unreachable: inner() -> B6, B8 [EXCEPTION]
# B4: inner() -> B7 [RETURN], B8 [EXCEPTION]
# B5: inner() -> B8 [EXCEPTION]
# B6 unreachable: outer() -> B9
# B7: outer() -> B9 [RETURN]
# B8: outer() -> B10 [EXCEPTION]
# B9 exit
# B10 raise-exit
#== a return inside finally replaces the pending exception (no re-raise leaves that copy)
def f():
    try:
        g()
    finally:
        return 0
# B0 entry: -> B1
# B1: g() -> B2, B3 [EXCEPTION]
# B2: return 0 -> B4 [RETURN]
# B3: return 0 -> B4 [RETURN]
# B4 exit
# B5 raise-exit unreachable
#== exceptions raised in a handler go to the finally, not to the sibling handlers
def f():
    try:
        g()
    except KeyError:
        h()
    except IndexError:
        pass
    finally:
        close()
# B0 entry: -> B1
# B1: g() -> B6, B2 [EXCEPTION]
# B2: except? KeyError -> B3 [TRUE], B4 [FALSE], B7 [EXCEPTION]
# B3: caught | h() -> B6, B7 [EXCEPTION]
# B4: except? IndexError -> B5 [TRUE], B7 [FALSE], B7 [EXCEPTION]
# B5: caught | pass -> B6
# B6: close() -> B8
# B7: close() -> B9 [EXCEPTION]
# B8 exit
# B9 raise-exit
#== try/except*: matching clauses run in turn; what is left (or raised in them) is raised at the end
def f():
    try:
        g()
    except* ValueError as eg:
        h(eg)
    except* TypeError:
        pass
    print("after")
# B0 entry: -> B1
# B1: g() -> B9, B2 [EXCEPTION]
# B2: except? ValueError -> B3 [TRUE], B6 [FALSE]
# B3: caught as eg | h(eg) -> B4, B5 [EXCEPTION]
# B4: unbind eg -> B6
# B5: unbind eg -> B6 [EXCEPTION]
# B6: except? TypeError -> B7 [TRUE], B8 [FALSE]
# B7: caught | pass -> B8
# B8: -> B9, B11 [EXCEPTION]
# B9: print("after") -> B10
# B10 exit
# B11 raise-exit
#== with: the exit runs on every route; its exceptional copy may suppress (SUPPRESS) or re-raise
def f(path):
    with open(path) as fh:
        data = fh.read()
    return data
# B0 entry: params path -> B1
# B1: with open(path) -> B2
# B2: bind fh | data = fh.read() -> B3, B4 [EXCEPTION]
# B3: exit open(path) -> B5
# B4: exit open(path) -> B5 [SUPPRESS], B7 [EXCEPTION]
# B5: return data -> B6 [RETURN]
# B6 exit
# B7 raise-exit
#== with several items is nested withs; a return runs the exits innermost first
async def f(a, b):
    async with a as x, b:
        if x:
            return x
        await x
    return None
# B0 entry: params a, b -> B1
# B1: with a -> B2
# B2: bind x | with b -> B3, B11 [EXCEPTION]
# B3: if x -> B4 [TRUE], B5 [FALSE], B8 [EXCEPTION]
# B4: return x -> B7 [RETURN], B8 [EXCEPTION]
# B5: await x -> B6, B8 [EXCEPTION]
# B6: exit b -> B9, B11 [EXCEPTION]
# B7: exit b -> B10 [RETURN], B11 [EXCEPTION]
# B8: exit b -> B9 [SUPPRESS], B11 [EXCEPTION]
# B9: exit a -> B12
# B10: exit a -> B13 [RETURN]
# B11: exit a -> B12 [SUPPRESS], B14 [EXCEPTION]
# B12: return None -> B13 [RETURN]
# B13 exit
# B14 raise-exit
#== match: pattern test, then guard, then body; failures fall to the next case; no case matches: past the match
def f(cmd):
    match cmd:
        case ["go", direction] if direction in DIRS:
            move(direction)
        case ["go", _]:
            print("where?")
        case {"quit": True} | "q":
            return None
    print("next")
# B0 entry: params cmd -> B1
# B1: match cmd | case ["go", direction] -> B2 [TRUE], B4 [FALSE]
# B2: guard direction in DIRS -> B3 [TRUE], B4 [FALSE]
# B3: move(direction) -> B8
# B4: case ["go", _] -> B5 [TRUE], B6 [FALSE]
# B5: print("where?") -> B8
# B6: case {"quit": True} | "q" -> B7 [TRUE], B8 [FALSE]
# B7: return None -> B9 [RETURN]
# B8: print("next") -> B9
# B9 exit
# B10 raise-exit unreachable
#== match with an irrefutable last case: nothing falls past the match
def f(p):
    match p:
        case Point(x=0, y=0):
            r = "origin"
        case (0 | 1) as small:
            r = small
        case other:
            r = other
    return r
# B0 entry: params p -> B1
# B1: match p | case Point(x=0, y=0) -> B2 [TRUE], B3 [FALSE]
# B2: r = "origin" -> B7
# B3: case (0 | 1) as small -> B4 [TRUE], B5 [FALSE]
# B4: r = small -> B7
# B5: case other -> B6 [TRUE]
# B6: r = other -> B7
# B7: return r -> B8 [RETURN]
# B8 exit
# B9 raise-exit unreachable
#== an or-pattern with an irrefutable alternative cannot fail; a guarded capture's pattern cannot either, only its guard
def f(p):
    match p:
        case x if x > 0:
            r = x
        case 0 | _:
            r = 0
    return r
# B0 entry: params p -> B1
# B1: match p | case x -> B2 [TRUE]
# B2: guard x > 0 -> B3 [TRUE], B4 [FALSE]
# B3: r = x -> B6
# B4: case 0 | _ -> B5 [TRUE]
# B5: r = 0 -> B6
# B6: return r -> B7 [RETURN]
# B7 exit
# B8 raise-exit unreachable
#== yield ends its block: the generator resumes along a YIELD edge
def f(n):
    i = 0
    while i < n:
        got = yield i
        if got:
            yield from other(got)
        i += 1
# B0 entry: params n -> B1
# B1: i = 0 -> B2
# B2: while i < n -> B3 [TRUE], B7 [FALSE]
# B3: got = yield i -> B4 [YIELD]
# B4: if got -> B5 [TRUE], B6 [FALSE]
# B5: yield from other(got) -> B6 [YIELD]
# B6: i += 1 -> B2 [LOOP_BACK]
# B7 exit
# B8 raise-exit unreachable
#== nested defs and classes are single statements of the outer graph
def f(a):
    @decorate(a)
    def inner(b=a):
        return b
    class K(Base):
        x = 1
    return inner, K
# B0 entry: params a -> B1
# B1: def inner(b=a): ... | class K(Base): ... | return inner, K -> B2 [RETURN]
# B2 exit
# B3 raise-exit unreachable
#== try nested in an except handler
def f():
    try:
        g()
    except Exception as e:
        try:
            log(e)
        except Exception:
            pass
        raise
# B0 entry: -> B1
# B1: g() -> B9, B2 [EXCEPTION]
# B2: except? Exception -> B3 [TRUE], B10 [FALSE]
# B3: caught as e -> B4
# B4: log(e) -> B7, B5 [EXCEPTION]
# B5: except? Exception -> B6 [TRUE], B8 [FALSE], B8 [EXCEPTION]
# B6: caught | pass -> B7
# B7: raise -> B8 [EXCEPTION]
# B8: unbind e -> B10 [EXCEPTION]
# B9 exit
# B10 raise-exit
#== a with inside a try: a re-raise from the exit goes to the handler
def f():
    try:
        with lock:
            work()
    except RuntimeError:
        recover()
# B0 entry: -> B1
# B1: with lock -> B2, B5 [EXCEPTION]
# B2: work() -> B3, B4 [EXCEPTION]
# B3: exit lock -> B7, B5 [EXCEPTION]
# B4: exit lock -> B7 [SUPPRESS], B5 [EXCEPTION]
# B5: except? RuntimeError -> B6 [TRUE], B8 [FALSE]
# B6: caught | recover() -> B7
# B7 exit
# B8 raise-exit
#== continue inside a named handler runs the implicit `del e` first
def f(tasks):
    for t in tasks:
        try:
            t.run()
        except Exception as e:
            if retry(e):
                continue
            log(e)
# B0 entry: params tasks -> B1
# B1: iter tasks -> B2
# B2: next -> B3 [TRUE], B13 [FALSE]
# B3: bind t -> B4
# B4: t.run() -> B12, B5 [EXCEPTION]
# B5: except? Exception -> B6 [TRUE], B14 [FALSE]
# B6: caught as e | if retry(e) -> B7 [TRUE], B8 [FALSE], B11 [EXCEPTION]
# B7: continue -> B10 [CONTINUE]
# B8: log(e) -> B9, B11 [EXCEPTION]
# B9: unbind e -> B12
# B10: unbind e -> B2 [CONTINUE]
# B11: unbind e -> B14 [EXCEPTION]
# B12: -> B2 [LOOP_BACK]
# B13 exit
# B14 raise-exit
#== lambda: the lambda's parameters, then its body's value, then the exit
key = lambda item, *, reverse=False: -item if reverse else item
# B0 entry: params item, reverse -> B1
# B1: eval -item if reverse else item -> B2
# B2 exit
# B3 raise-exit unreachable
#== class: a class body runs once, top to bottom
class Config:
    debug = False
    if DEBUG:
        debug = True
    def method(self):
        return self.debug
# B0 entry: -> B1
# B1: debug = False | if DEBUG -> B2 [TRUE], B3 [FALSE]
# B2: debug = True -> B3
# B3: def method(self): ... -> B4
# B4 exit
# B5 raise-exit unreachable
#== module: the module's top level; function bodies are not part of it
import sys
def main():
    return 0
if __name__ == "__main__":
    sys.exit(main())
# B0 entry: -> B1
# B1: import sys | def main(): ... | if __name__ == "__main__" -> B2 [TRUE], B3 [FALSE]
# B2: sys.exit(main()) -> B3
# B3 exit
# B4 raise-exit unreachable
