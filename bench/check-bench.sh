#!/usr/bin/env bash
# Throughput of `graphmend check` against `ruff check --select E,F` (issue 4), as whole processes
# on the same files in one run: the CPython 3.13 standard library and the transformers package.
# graphmend runs through ./graphmend, as the README has users run it. Both tools run with their
# default parallelism; each measurement is the best of N runs (wall).
# ruff and transformers come from PyPI into a cached environment outside the checkout.
# Usage: bench/check-bench.sh [RUNS]     (default 3)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
runs=${1:-3}
source "$here/check-common.sh"
env_dir=$bench_env
tf=$("$env_dir/bin/python" -c 'import importlib.util,os; print(os.path.dirname(importlib.util.find_spec("transformers").origin))')
stdlib=/root/.pyenv/versions/3.13.0/lib/python3.13
[[ -f "$root/server/target/graphmend.jar" ]] || (cd "$root" && mvn -q -DskipTests package)
jar="$root/server/target/graphmend.jar"

echo "ruff $("$env_dir/bin/ruff" --version | cut -d' ' -f2), transformers $("$env_dir/bin/python" -c 'import importlib.metadata as m; print(m.version("transformers"))'), $(java -version 2>&1 | head -1)"
printf '%-28s %8s %10s %10s %8s\n' "corpus" "files" "graphmend" "ruff" "ratio"
for corpus in "stdlib:$stdlib" "transformers:$tf" "transformers-modeling:$tf/models"; do
  name=${corpus%%:*}; dir=${corpus#*:}
  files=$(find "$dir" -name '*.py' | wc -l)
  g=$(best "$root/graphmend" check --no-config "$dir") # the launcher users run, with its JVM options
  r=$(best "$env_dir/bin/ruff" check --no-cache --isolated --select E,F --exit-zero "$dir")
  printf '%-28s %8d %9ss %9ss %7.2fx\n' "$name" "$files" "$g" "$r" "$(python3 -c "print($g / $r)")"
done
