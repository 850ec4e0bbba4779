#!/usr/bin/env bash
# Incremental edit benchmark (issue 3): edit -> updated tree latency on _pydecimal.py, beside a
# full build of the same file, and the heap an open document retains.
# Usage: bench/edit-bench.sh [FILE]   (default: CPython 3.13's Lib/_pydecimal.py)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
file=${1:-/root/.pyenv/versions/3.13.0/lib/python3.13/_pydecimal.py}
[[ -f $file ]] || { echo "no such file: $file" >&2; exit 2; }
echo "== building (reactor install, then bench/)" >&2
(cd "$root" && mvn -q -DskipTests install)
(cd "$here" && mvn -q compile dependency:build-classpath -Dmdep.outputFile=target/classpath.txt)
mkdir -p "$here/out"
out="$here/out/edit-$(date +%Y-%m-%d-%H%M%S).txt"
java ${JAVA_OPTS:--Xss8m} -cp "$here/target/classes:$(cat "$here/target/classpath.txt")" \
  dev.graphmend.bench.EditBench "$file" "$out"
echo "written to $out" >&2
