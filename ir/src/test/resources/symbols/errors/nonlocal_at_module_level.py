# error: nonlocal declaration not allowed at module level
nonlocal x
