#!/usr/bin/env bash
# The floor under `graphmend check` (issue 4): how long a fresh JVM takes just to decode, lex and
# parse the same files with the ANTLR front end (CheckFloorBench), next to `ruff check --select
# E,F` and the whole `graphmend check`, all in one run, best of N wall times each. It shows how
# much of check's time the parser alone costs, whatever the analysis does.
# Usage: bench/check-floor.sh [RUNS] [DIR]   (default 3, the CPython 3.13 standard library)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
runs=${1:-3}
dir=${2:-/root/.pyenv/versions/3.13.0/lib/python3.13}
source "$here/check-common.sh"
env_dir=$bench_env
echo "== building (reactor install, then bench/)" >&2
(cd "$root" && mvn -q -DskipTests install)
(cd "$here" && mvn -q compile dependency:build-classpath -Dmdep.outputFile=target/classpath.txt)
cp="$here/target/classes:$(cat "$here/target/classpath.txt")"
jvm=(java -XX:TieredStopAtLevel=1) # the options ./graphmend gives batch commands

files=$(find "$dir" -name '*.py' | wc -l)
lines=$(find "$dir" -name '*.py' -print0 | xargs -0 cat | wc -l)
r=$(best "$env_dir/bin/ruff" check --no-cache --isolated --select E,F --exit-zero "$dir")
echo "$dir: $files files, $lines lines; $(nproc) cores; $(java -version 2>&1 | head -1)"
printf '%-44s %8s %8s\n' "what" "wall s" "x ruff"
row() { printf '%-44s %8s %7.2fx\n' "$1" "$2" "$(python3 -c "print($2 / $r)")"; }
row "ruff check --select E,F" "$r"
for stage in decode lex parse tree ast; do
  row "graphmend front end up to: $stage" "$(best "${jvm[@]}" -cp "$cp" dev.graphmend.bench.CheckFloorBench "$stage" "$dir")"
done
row "./graphmend check (everything)" "$(best "$root/graphmend" check --no-config "$dir")"
