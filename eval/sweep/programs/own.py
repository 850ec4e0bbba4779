"""The files a catalog entry names as the program's own: a path, or a folder (``timm/``) for every
``*.py`` file under it. Pure Python: the runner and the worker both use it."""

import os


def own_files(src, own):
    """Sorted paths, relative to the checkout ``src``, of the entry's own files."""
    out = set()
    for rel in own:
        if rel.endswith("/"):
            for root, dirs, files in os.walk(os.path.join(src, rel)):
                dirs.sort()
                out.update(os.path.relpath(os.path.join(root, f), src) for f in files if f.endswith(".py"))
        else:
            out.add(rel)
    return sorted(out)
