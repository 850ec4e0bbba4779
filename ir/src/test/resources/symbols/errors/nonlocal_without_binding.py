# error: no binding for nonlocal 'x' found
def f():
    def g():
        nonlocal x
        x = 1
