#!/usr/bin/env bash
# ruff on every file `graphmend fix` rewrites in the evaluation (eval/run.sh): for each
# transformers version the evaluation uses (4.52.4: eval/results.json; 5.24.0:
# eval/newest/results.json) and each fix variant (safe; --unsafe-fixes), the same files are
# fixed in a scratch copy of the package and eval/ruff_diff.py runs ruff (default rules, no
# project configuration) on each changed file beside the original. With --whole, every file of
# the package is fixed instead of the evaluation's model files. Writes eval/out/ruff-fixed.txt
# (or ruff-fixed-whole.txt); exits 1 when a fix introduced a ruff finding.
#
#   eval/ruff-fixed.sh [--whole]
# Needs python3 with venv and pip, PyPI reachable the first time (ruff 0.17.6 and the two
# transformers wheels, no dependencies, cached in ~/.cache/graphmend/ruff-fixed).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
whole=0
[[ "${1:-}" == "--whole" ]] && whole=1
cache="${XDG_CACHE_HOME:-$HOME/.cache}/graphmend/ruff-fixed"
ruff_spec="ruff==0.17.6"
mkdir -p "$cache"
if [[ ! -x "$cache/venv/bin/ruff" ]] || [[ "$(cat "$cache/venv/.spec" 2>/dev/null)" != "$ruff_spec" ]]; then
    rm -rf "$cache/venv"
    python3 -m venv "$cache/venv"
    "$cache/venv/bin/pip" install -q "$ruff_spec"
    echo "$ruff_spec" > "$cache/venv/.spec"
fi
ruff="$cache/venv/bin/ruff"
"$root/graphmend" --version >/dev/null # builds the jar when stale
# a copy: a rebuild of server/target while this runs must not change the classes under it
jar="$cache/graphmend.jar"
cp "$root/server/target/graphmend.jar" "$jar"
out="$root/eval/out/ruff-fixed.txt"
[[ $whole == 0 ]] || out="$root/eval/out/ruff-fixed-whole.txt"
mkdir -p "$(dirname "$out")"
{
    echo "# ruff on the files graphmend fix rewrote ($(date -u +%Y-%m-%d), $("$ruff" --version), graphmend $(git -C "$root" rev-parse --short HEAD))"
    echo "# command: eval/ruff-fixed.sh${1:+ $1}"
} > "$out"
status=0
for pair in "4.52.4 eval/results.json" "5.24.0 eval/newest/results.json"; do
    set -- $pair
    version="$1" results="$root/$2"
    pkg_root="$cache/transformers-$version"
    if [[ ! -d "$pkg_root/transformers" ]]; then
        rm -rf "$pkg_root" && mkdir -p "$pkg_root"
        "$cache/venv/bin/pip" download -q --no-deps -d "$pkg_root/wheel" "transformers==$version"
        python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$pkg_root"/wheel/*.whl "$pkg_root"
    fi
    for variant in safe unsafe; do
        flags=()
        [[ $variant == unsafe ]] && flags=(--unsafe-fixes)
        copy="$cache/copies/$version-$variant"
        rm -rf "$copy" && mkdir -p "$copy" && cp -r "$pkg_root/transformers" "$copy/"
        if [[ $whole == 1 ]]; then
            files=("$copy/transformers")
        else
            mapfile -t files < <(python3 -c 'import json, sys; [print(sys.argv[2] + "/transformers/" + f) for f in json.load(open(sys.argv[1]))["fix"][sys.argv[3]]["files"]]' \
                "$results" "$copy" "$variant")
        fi
        rc=0
        t0=$SECONDS
        java -jar "$jar" fix -q --exit-zero "${flags[@]}" "${files[@]}" >/dev/null 2>"$cache/fix-$version-$variant.err" || rc=$?
        echo "== transformers $version, graphmend fix ${flags[*]:-(safe)} on ${#files[@]} path(s): exit $rc, $((SECONDS - t0)) s" | tee -a "$out"
        if [[ $rc != 0 ]]; then tail -5 "$cache/fix-$version-$variant.err" | tee -a "$out"; status=1; fi
        if ! python3 "$root/eval/ruff_diff.py" --ruff "$ruff" --original "$pkg_root" --fixed "$copy" | tee -a "$out"; then
            status=1
        fi
    done
done
echo "written: $out"
exit $status
