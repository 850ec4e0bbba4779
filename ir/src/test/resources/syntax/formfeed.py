x = 1

def after_formfeed():
    pass

class D:
        a = 1
