#!/usr/bin/env bash
# Issue 40's adversarial inputs (huge literals, deep nesting) through our parser and CPython's
# ast.parse in the same run; see bench/deep_inputs.py. PYTHON: the CPython (default pyenv 3.13.0).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
python=${PYTHON:-/root/.pyenv/versions/3.13.0/bin/python3}
echo "== building (reactor install, then bench/)" >&2
(cd "$root" && mvn -q -DskipTests install)
(cd "$here" && mvn -q compile dependency:build-classpath -Dmdep.outputFile=target/classpath.txt)
exec "$python" "$here/deep_inputs.py" "$here/target/classes:$(cat "$here/target/classpath.txt")"
