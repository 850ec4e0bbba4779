# Shared by bench/check-bench.sh and bench/check-floor.sh (sourced, not run): the cached
# environment with ruff and transformers, and best-of-N wall timing of a whole process.
# Needs: $runs (how many times each command runs).

# ruff and transformers (without its dependencies) from PyPI, in a cached environment outside the checkout
bench_env="${XDG_CACHE_HOME:-$HOME/.cache}/graphmend/bench-env"
if [[ ! -x "$bench_env/bin/ruff" || ! -d "$bench_env/lib" ]] || ! "$bench_env/bin/python" -c 'import importlib.util,sys; sys.exit(importlib.util.find_spec("transformers") is None)' 2>/dev/null; then
  echo "== creating $bench_env (ruff, transformers without dependencies)" >&2
  rm -rf "$bench_env"
  python3 -m venv "$bench_env"
  "$bench_env/bin/pip" install -q ruff
  "$bench_env/bin/pip" install -q --no-deps transformers
fi

best() { # best wall time in seconds of running "$@" $runs times (output discarded)
  local b=""
  for _ in $(seq "$runs"); do
    local s e
    s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N)
    b=$(python3 -c "print(min(float('${b:-inf}'), $e - $s))")
  done
  printf '%.2f' "$b"
}
