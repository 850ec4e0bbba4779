# error: name 'x' is used prior to global declaration
def f():
    print(x)
    global x
