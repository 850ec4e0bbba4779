#!/usr/bin/env bash
# One command for the Hugging Face evaluation: creates (once, cached) the evaluation environment
# (eval/env.sh: torch and transformers==4.52.4 from PyPI, outside the checkout), then runs
# eval/harness.py, which measures every model family before and after `graphmend fix` and writes
# eval/results.json and eval/evaluation.md. Extra arguments go to the harness, e.g.
#   eval/run.sh --families t5,bart --skip-compile
# Scratch files (fixed copies of transformers, logs, inductor caches) go to
# ~/.cache/graphmend/eval-scratch.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
py="$("$here/env.sh")"
exec python3 "$here/harness.py" --python "$py" "$@"
