# error: name 'a' is parameter and global
def f(a):
    global a
