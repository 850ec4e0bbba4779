#!/usr/bin/env bash
# One command for the Hugging Face evaluation: creates (once, cached) the evaluation environment
# (eval/env.sh: torch and transformers from PyPI, outside the checkout), then runs eval/harness.py,
# which measures every model family before and after `graphmend fix`.
#
#   eval/run.sh            the paper's transformers (4.52.4): eval/results.json, eval/evaluation.md
#   eval/run.sh --newest   the same run on the newest transformers release (NEWEST below):
#                          eval/newest/results.json, eval/newest/evaluation.md
#
# Extra arguments go to the harness, e.g. `eval/run.sh --families t5,bart --skip-compile`.
# Scratch files (fixed copies of transformers, logs, inductor caches) go to
# ~/.cache/graphmend/eval-scratch[-VERSION]. docs/evaluation.md holds both reports:
# `python3 eval/report.py eval/results.json docs/evaluation.md --newest eval/newest/results.json`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# The newest transformers release on PyPI when this run was last made (2026-11-29); pinned so that
# the committed report can be reproduced. Bump it (or set GRAPHMEND_EVAL_NEWEST) for a later one.
NEWEST="${GRAPHMEND_EVAL_NEWEST:-5.24.0}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/graphmend"
if [[ "${1:-}" == "--newest" ]]; then
  shift
  export GRAPHMEND_EVAL_TRANSFORMERS="transformers==$NEWEST"
  export GRAPHMEND_EVAL_ENV="${GRAPHMEND_EVAL_ENV:-$cache/eval-env-$NEWEST}"
  mkdir -p "$here/newest"
  py="$("$here/env.sh")"
  exec python3 "$here/harness.py" --python "$py" --scratch "$cache/eval-scratch-$NEWEST" \
    --results "$here/newest/results.json" --markdown "$here/newest/evaluation.md" \
    --baseline "$here/results.json" "$@"
fi
py="$("$here/env.sh")"
exec python3 "$here/harness.py" --python "$py" "$@"
