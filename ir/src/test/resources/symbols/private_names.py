# Private name mangling: names starting with two underscores inside a class.
__module_private = 1


class Mangler:
    __secret = 1
    __dunder__ = 2
    _single = 3

    def __method(self, __arg):
        __local = __arg
        return self.__secret, __local, __module_private

    def reader(self):
        return __secret

    class __Nested:
        __inner = 1

        def get(self):
            return __inner

    def uses_nested(self):
        import __hidden.sub
        return __Nested, __hidden


class ___:
    __not_mangled = 1


class _Under:
    __mangled = 1

    def generic[__T](self, x: __T) -> __T:
        return x


class Generic[__P, Q]:
    __field: __P

    def method(self) -> Q:
        return __P
