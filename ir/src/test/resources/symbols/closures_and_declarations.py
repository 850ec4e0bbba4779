# Closures, global and nonlocal declarations, class bodies.
counter = 0


def make_counter(start, *args, step=1, **kwargs):
    count = start

    def bump():
        nonlocal count
        count += step
        return count

    def read():
        return count + len(args) + len(kwargs)

    return bump, read


def uses_global():
    global counter, never_assigned
    counter += 1
    return never_assigned


def nested_global():
    global g
    def inner():
        return g
    g = inner
    return g


def outer():
    x = 1
    y = 2

    class Inner:
        x = 10
        z = y

        def method(self):
            return x, y, z

        def other(self):
            nonlocal y
            y = 3

    def chain():
        def deeper():
            def deepest():
                return x
            return deepest
        return deeper

    return Inner, chain


class Base:
    attr = 1

    def method(self):
        return attr

    def uses_super(self):
        return super().uses_super()

    def uses_dunder_class(self):
        return __class__

    def nested_super(self):
        def inner():
            return super(Base, self)
        return inner

    @staticmethod
    def static(a, /, b, *, c):
        return a + b + c

    class_level = [attr for _ in range(3)]
    global declared_in_class
    declared_in_class = 1


def shadow_super():
    super = 1
    return super


def delete_things(a):
    del a
    b = 1
    del b
    del undefined_here


def lambdas(default=lambda: counter):
    f = lambda a, b=default, *c, d=counter, **e: a + b + d + counter
    g = lambda: (lambda: f)
    return f, g


print(super)
