#!/usr/bin/env bash
# LSP latency benchmark (issue 6): GraphMend's language server beside `ruff server` and
# `pyright-langserver`, same files, same stdio harness (bench/lsp_latency.py), same run.
#
# Usage: bench/lsp-latency.sh [lsp_latency.py options, e.g. --edits 200 --servers graphmend,ruff]
# Needs: server/target/graphmend.jar (built by `mvn package`; not built here), java, node/npm,
# python3. Installs, outside the checkout and only when missing:
#   ruff     pip into /root/.cache/graphmend/bench-env (RUFF=... to use another binary)
#   pyright  npm into ~/.cache/graphmend/bench-node   (PYRIGHT=... to use another binary)
# The table is printed and written to bench/out/lsp-latency-<date>.txt (raw numbers beside it
# as .json). See the docstring of lsp_latency.py for what is measured and how.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
venv=/root/.cache/graphmend/bench-env
node_dir=${BENCH_NODE:-$HOME/.cache/graphmend/bench-node}
ruff=${RUFF:-$venv/bin/ruff}
pyright=${PYRIGHT:-$node_dir/node_modules/.bin/pyright-langserver}

if [[ ! -x $ruff ]]; then
  [[ -x $venv/bin/python ]] || python3 -m venv "$venv"
  echo "== installing ruff into $venv" >&2
  "$venv/bin/python" -m pip install -q ruff
  ruff=$venv/bin/ruff
fi
if [[ ! -x $pyright ]]; then
  echo "== installing pyright into $node_dir" >&2
  mkdir -p "$node_dir"
  (cd "$node_dir" && timeout 600 npm install --no-audit --no-fund pyright >&2)
  pyright=$node_dir/node_modules/.bin/pyright-langserver
fi
for _ in 1 2 3 4 5 6; do  # the jar may be briefly missing while it is rebuilt
  [[ -f $root/server/target/graphmend.jar ]] && break
  echo "waiting for server/target/graphmend.jar" >&2; sleep 30
done
[[ -f $root/server/target/graphmend.jar ]] || { echo "no server/target/graphmend.jar: run mvn package" >&2; exit 2; }
exec python3 "$here/lsp_latency.py" --ruff "$ruff" --pyright "$pyright" \
  --jar "$root/server/target/graphmend.jar" "$@"
