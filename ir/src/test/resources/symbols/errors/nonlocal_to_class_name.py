# error: no binding for nonlocal 'c' found
class C:
    c = 1
    def m(self):
        nonlocal c
