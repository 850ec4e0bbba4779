#!/usr/bin/env bash
# Creates (once) and prints the python of the evaluation environment: torch and the paper's
# transformers release, from PyPI, in a virtual environment outside the checkout (cached, like
# scripts/torch-env). A marker file records the finished install's specs, so a half-done or
# outdated install is redone, not trusted. The environment is never modified by the harness:
# the rewritten transformers copy lives in a scratch folder put first on PYTHONPATH.
# Usage: eval/env.sh                 -> prints the environment's python on stdout
# Env:   GRAPHMEND_EVAL_ENV (folder), GRAPHMEND_EVAL_TORCH (default torch==2.15.0),
#        GRAPHMEND_EVAL_TRANSFORMERS (default transformers==4.52.4)
set -euo pipefail
torch_spec="${GRAPHMEND_EVAL_TORCH:-torch==2.15.0}"
tf_spec="${GRAPHMEND_EVAL_TRANSFORMERS:-transformers==4.52.4}"
spec="$torch_spec $tf_spec numpy"
env_dir="${GRAPHMEND_EVAL_ENV:-${XDG_CACHE_HOME:-$HOME/.cache}/graphmend/eval-env}"
marker="$env_dir/.graphmend-installed"
py="$env_dir/bin/python"
if [[ -f "$marker" && "$(cat "$marker")" == "$spec" ]] && "$py" -c 'import torch, transformers' 2>/dev/null; then
  echo "$py"; exit 0
fi
base="$(command -v python3)"
echo "eval-env: installing $spec into $env_dir (once; cached for later runs)" >&2
rm -rf "$env_dir"
"$base" -m venv "$env_dir" >&2
"$py" -m pip install -q --upgrade pip >&2
# shellcheck disable=SC2086  # the spec is a list of requirement strings
"$py" -m pip install -q $spec >&2
"$py" -c 'import sys, torch, transformers; print("eval-env: torch", torch.__version__, "transformers", transformers.__version__, file=sys.stderr)'
echo "$spec" > "$marker"
echo "$py"
