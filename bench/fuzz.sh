#!/usr/bin/env bash
# The fuzzer's long run (issue 40; docs/fuzzing.md): 50,000 inputs by default (the issue's goal is
# `bench/fuzz.sh --inputs 200000`), report to bench/out/fuzz-<date>-<seed>.json and .txt, the
# minimised failures in bench/out/fuzz-<date>-<seed>/.
#   bench/fuzz.sh [--seed S] [--inputs N] [any other tools/fuzz/fuzz.py option]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seed="$(date +%s)" inputs=50000 rest=()
while (($#)); do
    case "$1" in
        --seed) seed="$2"; shift 2 ;;
        --inputs) inputs="$2"; shift 2 ;;
        *) rest+=("$1"); shift ;;
    esac
done
jar=server/target/graphmend.jar
[[ -f "$jar" ]] || { echo "bench/fuzz.sh: $jar is missing (mvn -q -DskipTests package)" >&2; exit 2; }
mkdir -p bench/out
report="bench/out/fuzz-$(date -u +%Y-%m-%d)-$seed.json"
echo "bench/fuzz.sh: seed $seed, $inputs inputs -> $report" >&2
exec python3 tools/fuzz/fuzz.py --jar "$jar" --seed "$seed" --inputs "$inputs" \
    --minimise-per 2 --minimise-time 60 --minimise-budget 1800 --report "$report" "${rest[@]}"
