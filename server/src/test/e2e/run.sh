#!/usr/bin/env bash
# Runs the vscode-jsonrpc end-to-end check against the server.
#   server/src/test/e2e/run.sh                      # the built jar, java -jar server/target/graphmend.jar lsp
#   server/src/test/e2e/run.sh CMD ARGS...          # any command that speaks LSP on stdio
# Installs vscode-jsonrpc into this folder (npm ci; never a global install). Fails, loudly, when
# node or npm is missing: it does not skip.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../../.." && pwd)"
for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "ORACLE NOT RUN: LSP end-to-end test (a vscode-jsonrpc client against the jar): '$tool' is not installed. To run it: install Node.js 20+ and npm (e.g. apt-get install nodejs npm)." >&2
    exit 3
  fi
done
if [ ! -f "$here/node_modules/vscode-jsonrpc/package.json" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi
if [ $# -eq 0 ]; then
  jar="${GRAPHMEND_JAR:-$repo/server/target/graphmend.jar}"
  if [ ! -f "$jar" ]; then
    echo "e2e: $jar is missing; build it with 'mvn -DskipTests package'" >&2
    exit 3
  fi
  set -- java -jar "$jar" lsp
fi
exec node "$here/e2e.js" "$repo" "$@"
