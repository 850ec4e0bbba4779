#!/usr/bin/env bash
# Creates (once) and prints the python of the sweep environment: torch, transformers, timm and
# diffusers from PyPI, pinned, in a virtual environment outside the checkout. The install and its
# marker are eval/env.sh's; this names the packages and gives each torch release an environment
# of its own, so the sweep can run under the newest torch and an older one side by side.
# Usage: eval/sweep/env.sh                  -> the environment's python on stdout (torch 2.15.0)
#        eval/sweep/env.sh 2.10.0           -> the same with torch 2.10.0
# Env:   GRAPHMEND_SWEEP_ENV (folder), GRAPHMEND_SWEEP_LIBS (pip specs of the libraries)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
torch_version="${1:-2.15.0}"
# The newest releases on PyPI when the sweep was set up (2026-12-01); pinned so the committed results
# can be reproduced. Bump them here, and re-run the sweep, for later ones.
export GRAPHMEND_EVAL_TORCH="torch==$torch_version"
export GRAPHMEND_EVAL_TRANSFORMERS="${GRAPHMEND_SWEEP_LIBS:-transformers==5.24.0 timm==1.0.31 diffusers==0.42.1 torch_geometric==2.8.1 pillow}"
export GRAPHMEND_EVAL_ENV="${GRAPHMEND_SWEEP_ENV:-${XDG_CACHE_HOME:-$HOME/.cache}/graphmend/sweep-env-$torch_version}"
exec "$here/../env.sh"
