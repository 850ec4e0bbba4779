#!/usr/bin/env bash
# Parse benchmark: our PythonSourceParser against CPython's ast.parse, on the same files.
#
# Usage: bench/parse-bench.sh [STDLIB_DIR]
#   STDLIB_DIR  default: the CPython 3.13 standard library (/root/.pyenv/versions/3.13.0/lib/python3.13)
# Environment:
#   PYTHON      the CPython that lists, accepts and times the files (default: pyenv's 3.13.0)
#   WARMUP      JVM warm-up passes, the first one reported as the cold figure (default 10, min 3;
#               the JIT keeps improving for about 8 passes)
#   PASSES      measured passes on each side (default 5, min 5)
#   JAVA_OPTS   extra JVM options (default: -Xss8m, as the unit tests run)
#
# Files: every *.py under STDLIB_DIR except site-packages/ and folders named test, tests or
# idle_test, and only those CPython accepts (list_files.py decides, so both sides time the
# same files). The table is printed and written to bench/out/parse-<date>.txt.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
stdlib=${1:-/root/.pyenv/versions/3.13.0/lib/python3.13}
python=${PYTHON:-/root/.pyenv/versions/3.13.0/bin/python3}
warmup=${WARMUP:-10}
passes=${PASSES:-5}
(( warmup >= 3 )) || { echo "WARMUP must be >= 3" >&2; exit 2; }
(( passes >= 5 )) || { echo "PASSES must be >= 5" >&2; exit 2; }
[[ -d $stdlib ]] || { echo "no such folder: $stdlib" >&2; exit 2; }

echo "== building (reactor install, then bench/)" >&2
(cd "$root" && mvn -q -DskipTests install)
(cd "$here" && mvn -q compile dependency:build-classpath -Dmdep.outputFile=target/classpath.txt)

mkdir -p "$here/out"
stamp=$(date +%Y-%m-%d)
out="$here/out/parse-$stamp.txt"
n=2
while [[ -e $out ]]; do out="$here/out/parse-$stamp-$n.txt"; n=$((n + 1)); done
base=${out%.txt}
files="$base.files.tsv"

echo "== listing the files CPython accepts" >&2
"$python" "$here/list_files.py" "$stdlib" > "$files" 2> "$base.rejected.txt"
tail -n 1 "$base.rejected.txt" >&2
rejected=$(grep -c '^rejected by CPython' "$base.rejected.txt" || true)

echo "== CPython: ast.parse, 1 warm-up pass, $passes measured passes" >&2
"$python" "$here/cpython_parse.py" "$files" --warmup 1 --passes "$passes" > "$base.cpython.txt"
cat "$base.cpython.txt" >&2

echo "== ours: $warmup warm-up passes (the first one cold), $passes measured passes" >&2
# shellcheck disable=SC2086
java ${JAVA_OPTS:--Xss8m} -cp "$here/target/classes:$(cat "$here/target/classpath.txt")" \
  dev.graphmend.bench.ParseBench --files "$files" --cpython "$base.cpython.txt" \
  --warmup "$warmup" --passes "$passes" --root "$stdlib" --rejected "$rejected" --out "$out"
