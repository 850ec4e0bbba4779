# error: import * only allowed at module level
def f():
    from os.path import *
