# Layout: tabs, form feeds, backslash continuations, implicit joining, comments.
if True:
	x = 1  # a tab
	if x:
		y = 2
	z = 3

def f():
    return (1 +
            2) \
        + 3

value = [
    1,
  2,
        3,
]
s = \
    'continued'

class C:

    def g(self):
        pass
    # trailing comment at a lower indent
  # even lower
    def h(self):
        pass
