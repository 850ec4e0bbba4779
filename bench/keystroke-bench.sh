#!/usr/bin/env bash
# The language server's work per keystroke, in process and by phase (issue 17): a letter typed and
# deleted, or Enter pressed and undone, in a function body in the middle of FILE, with every .py file
# under WORKSPACE in the project (as the server's index holds them). Lower noise than
# bench/lsp-latency.sh, whose figures judge latency; this one shows what a change did to a phase.
# Usage: bench/keystroke-bench.sh FILE [WORKSPACE] [EDITS]
#   e.g. python3 bench/dense_file.py 90 /tmp/dense_90.py
#        bench/keystroke-bench.sh /tmp/dense_90.py path/to/site-packages/transformers
# JAVA_OPTS: default the editor clients' options (docs/lsp.md).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
file=${1:?usage: bench/keystroke-bench.sh FILE [WORKSPACE] [EDITS]}
workspace=${2:-}
edits=${3:-600}
echo "== building (reactor install, then bench/)" >&2
(cd "$root" && mvn -q -DskipTests install)
(cd "$here" && mvn -q compile dependency:build-classpath -Dmdep.outputFile=target/classpath.txt)
for kind in type enter; do
  java ${JAVA_OPTS:--XX:+UseSerialGC -XX:FreqInlineSize=100 -XX:InlineSmallCode=1000 -XX:-ShrinkHeapInSteps -Xms192m -XX:NewSize=128m} \
    -cp "$here/target/classes:$(cat "$here/target/classpath.txt")" \
    dev.graphmend.bench.KeystrokeBench "$file" "$kind" "$edits" $workspace
done
