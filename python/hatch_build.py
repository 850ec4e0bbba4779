"""Hatchling hooks for the `graphmend` wheel: the version from pom.xml, the jar from Maven.

The jar is, in order: the file `GRAPHMEND_JAR` names; `server/target/graphmend.jar` when it is
newer than every Maven source; else a fresh `mvn -DskipTests package` (which needs Java 17 and
Maven where the wheel is *built*, never where it is installed).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface
from hatchling.metadata.plugin.interface import MetadataHookInterface

ROOT = Path(__file__).resolve().parent.parent


def project_version(pom: Path) -> str:
    """The Maven version as PEP 440 spells it: 0.1.0-SNAPSHOT is 0.1.0.dev0."""
    text = pom.read_text(encoding="utf-8")
    text = re.sub(r"<parent>.*?</parent>", "", text, flags=re.S)  # a parent's version is not ours
    match = re.search(r"<artifactId>graphmend-parent</artifactId>\s*<version>([^<]+)</version>", text)
    if not match:
        raise RuntimeError(f"no project version in {pom}")
    version = match.group(1).strip()
    return version[: -len("-SNAPSHOT")] + ".dev0" if version.endswith("-SNAPSHOT") else version


def maven_sources(root: Path) -> list[Path]:
    found = [root / "pom.xml"]
    for pom in root.glob("*/pom.xml"):
        found.append(pom)
        src = pom.parent / "src" / "main"
        if src.is_dir():
            found.extend(p for p in src.rglob("*") if p.is_file())
    return found


def built_jar(root: Path) -> Path:
    named = os.environ.get("GRAPHMEND_JAR", "").strip()
    if named:
        jar = Path(named)
        if not jar.is_file():
            raise RuntimeError(f"GRAPHMEND_JAR names {jar}, which is not a file")
        return jar
    jar = root / "server" / "target" / "graphmend.jar"
    if jar.is_file():
        newest = max(p.stat().st_mtime for p in maven_sources(root))
        if jar.stat().st_mtime >= newest:
            return jar
    mvn = shutil.which("mvn")
    if mvn is None:
        raise RuntimeError(
            f"{jar} is missing or older than its sources, and Maven (mvn) is not installed to build "
            "it; build it first (mvn -DskipTests package) or set GRAPHMEND_JAR")
    subprocess.run([mvn, "-q", "-B", "-DskipTests", "package"], cwd=root, check=True)
    return jar


class CustomMetadataHook(MetadataHookInterface):
    def update(self, metadata: dict) -> None:
        metadata["version"] = project_version(ROOT / "pom.xml")


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel":
            return
        build_data["force_include"][str(built_jar(ROOT))] = "graphmend/graphmend.jar"
