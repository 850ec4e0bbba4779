# String forms: every prefix, triple quotes, bytes, raw, implicit concatenation.
a = 'single' "double" '''triple single''' """triple double"""
b = r'\d+' R"\w"
bb = rb'\x00' Rb"x" bR'y' BR"z" br'raw' b'bytes\x41\101\n'
c = u'unicode' U"U"
d = '\N{GREEK SMALL LETTER ALPHA}\u00e9\U0001F600\x41\101\a\b\f\n\r\t\v\\\'\"'
e = ("implicit "
     'concatenation '
     """across lines""")
f_ = """docstring with "quotes" and 'quotes'
and a second line \
continued"""
g = b'' b"" b'''''' b""""""
h = 'unknown \q escape'

# f-strings (PEP 701): nested quotes, nested fields, =, !r, format specs
name = "x"
i = f"{name}"
j = f"{name!r} {name!s} {name!a}"
k = f"{name=}" f"{name = }" f"{name=!r}" f"{name=:>10}"
l = f"{3.14159:.2f} {42:#x} {name:{'>'}{10}}"
m = f"{'nested' + "same quotes" + f'{"deeper"}'}"
n = f"{ {'a': 1}['a'] }"
o = f"{{literal braces}} {{{name}}}"
p = rf"\d{name}\n" fr'{name}\w' Rf"{name}" fR'{name}' F"{name}" RF'{name}'
q = f"""multi
line {name
} with {name:>{10}} end"""
r = f"{name:{'%'}}" f"{[x for x in range(3)]}" f"{(lambda y: y)(1)}"
s = f"{name!r:^20}" "plain" f"tail{name}"
t = f'{"\n".join(["a", "b"])}'
u = f"{f"{f"{name}"}"}"
v = f"{name:%Y-%m-%d %H:%M}"
w = f"\N{BULLET} {name} \{name}"
x_ = f"{'a' if name else 'b'}" f"{name:=^10}" f"{(y := 5)}"
y = f"{1:{2}{3}}"
z = f"" f'' f"""""" f''''''
aa = f'result: {name:{10:{0}}.{3:1}}'  # a field in a spec in a spec: the deepest CPython allows
