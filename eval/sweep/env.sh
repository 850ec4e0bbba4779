#!/usr/bin/env bash
# Creates (once) and prints the python of the sweep environment: torch, transformers, timm and
# diffusers from PyPI, pinned, in a virtual environment outside the checkout (cached like
# scripts/torch-env and eval/env.sh). A marker records the finished install's specs, so a half-done
# or outdated install is redone, not trusted. One environment per torch release, so the sweep can
# be run under the newest torch and under an older one side by side.
# Usage: eval/sweep/env.sh                  -> the environment's python on stdout (torch 2.15.0)
#        eval/sweep/env.sh 2.10.0           -> the same with torch 2.10.0
# Env:   GRAPHMEND_SWEEP_ENV (folder), GRAPHMEND_SWEEP_LIBS (pip specs of the three libraries)
set -euo pipefail
torch_version="${1:-2.15.0}"
# The newest releases on PyPI when the sweep was set up (2026-12-01); pinned so the committed results
# can be reproduced. Bump them here, and re-run the sweep, for later ones.
libs="${GRAPHMEND_SWEEP_LIBS:-transformers==5.24.0 timm==1.0.31 diffusers==0.42.1}"
spec="torch==$torch_version $libs numpy pillow"
env_dir="${GRAPHMEND_SWEEP_ENV:-${XDG_CACHE_HOME:-$HOME/.cache}/graphmend/sweep-env-$torch_version}"
marker="$env_dir/.graphmend-installed"
py="$env_dir/bin/python"
if [[ -f "$marker" && "$(cat "$marker")" == "$spec" ]] && "$py" -c 'import torch, transformers, timm, diffusers' 2>/dev/null; then
  echo "$py"; exit 0
fi
base="$(command -v python3)"
echo "sweep-env: installing $spec into $env_dir (once; cached for later runs)" >&2
rm -rf "$env_dir"
"$base" -m venv "$env_dir" >&2
"$py" -m pip install -q --upgrade pip >&2
# shellcheck disable=SC2086  # the spec is a list of requirement strings
"$py" -m pip install -q $spec >&2
"$py" -c 'import sys, torch, transformers, timm, diffusers; print("sweep-env: torch", torch.__version__, "transformers", transformers.__version__, "timm", timm.__version__, "diffusers", diffusers.__version__, file=sys.stderr)'
echo "$spec" > "$marker"
echo "$py"
