# error: name 'y' is assigned to before nonlocal declaration
def f():
    y = 1
    def g():
        y = 2
        nonlocal y
