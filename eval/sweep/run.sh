#!/usr/bin/env bash
# One command for the Dynamo sweep (eval/sweep/README.md): makes the sweep environment once
# (eval/sweep/env.sh, cached outside the checkout), runs every buildable model class of
# transformers, timm and diffusers under real TorchDynamo (sweep.py, resumable), checks the same
# installed packages with graphmend in both compile-root modes (compare.py), and renders
# docs/sweep.md (report.py).
#
#   eval/sweep/run.sh                      newest torch (2.15.0): out/torch-2.15.0/
#   eval/sweep/run.sh --torch 2.10.0       the same under torch 2.10.0
#   eval/sweep/run.sh --sample             the fixed CI sample only (out/sample-torch-VERSION/)
#   eval/sweep/run.sh --no-sweep           re-check and re-render from the committed results
#   eval/sweep/run.sh --programs           the programs part: public programs that call torch.compile
#                                          themselves, at pinned commits (programs/run_programs.py,
#                                          out/programs-torch-VERSION/); with --no-sweep only re-check;
#                                          --only a,b runs only those programs of programs/catalog.json
#   eval/sweep/run.sh --fix                the fix rate: the classes with breaks again, on copies of the
#                                          libraries that `graphmend fix` rewrote (fix_sweep.py), and the
#                                          programs with breaks on fixed copies (programs/fix_programs.py;
#                                          needs the programs part's results), and the fixed files' own
#                                          checks (fixed_files.py: edits in unreachable code, new ruff
#                                          findings); tables in docs/evaluation.md
#   eval/sweep/run.sh --capture            GM301 on the sweep: the classes with breaks compiled as a program
#                                          does, GM301's verdict beside fullgraph=True under real Dynamo
#                                          (capture.py, out/torch-VERSION/capture.json; table in
#                                          docs/evaluation.md; --rerun runs Dynamo again)
# Other arguments go to sweep.py (--libs, --limit, --part K/N, --entries, --timeout, --rerun).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
torch_version=2.15.0
sweep=1
fix=0
capture=0
programs=0
only=""
args=()
while (($#)); do
  case "$1" in
    --torch) torch_version="$2"; shift 2 ;;
    --no-sweep) sweep=0; shift ;;
    --fix) fix=1; shift ;;
    --capture) capture=1; shift ;;
    --programs) programs=1; shift ;;
    --only) only="$2"; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
py="$("$here/env.sh" "$torch_version")"
render_evaluation() {
  exec python3 "$root/eval/report.py" "$root/eval/results.json" "$root/docs/evaluation.md" \
    --newest "$root/eval/newest/results.json" --sweep-fix "$here/out/fix-torch-$torch_version/summary.json" \
    --sweep-capture "$here/out/torch-$torch_version/capture.json" \
    --programs-fix "$here/out/programs-torch-$torch_version/fix.json"
}
if ((capture)); then
  "$root/graphmend" --version >/dev/null 2>&1 || true   # builds the jar when stale
  python3 "$here/capture.py" --python "$py" ${args[@]+"${args[@]}"}
  render_evaluation
fi
if ((fix)); then
  python3 "$here/fix_sweep.py" --python "$py" ${args[@]+"${args[@]}"}
  python3 "$here/programs/fix_programs.py" --python "$py" ${only:+--programs "$only"}
  # the fixed files themselves: edits in code Dynamo cannot reach, new ruff findings (ruff pinned
  # as eval/ruff-fixed.sh pins it, in the same cache)
  ruff_venv="${XDG_CACHE_HOME:-$HOME/.cache}/graphmend/ruff-fixed/venv"
  if [[ ! -x "$ruff_venv/bin/ruff" ]] || [[ "$(cat "$ruff_venv/.spec" 2>/dev/null)" != "ruff==0.17.6" ]]; then
    rm -rf "$ruff_venv" && python3 -m venv "$ruff_venv" && "$ruff_venv/bin/pip" install -q "ruff==0.17.6"
    echo "ruff==0.17.6" > "$ruff_venv/.spec"
  fi
  python3 "$here/fixed_files.py" --python "$py" --ruff "$ruff_venv/bin/ruff" || true   # its table tells
  render_evaluation
fi
if ((programs)); then
  "$root/graphmend" --version >/dev/null 2>&1 || true   # builds the jar when stale
  python3 "$here/programs/run_programs.py" --python "$py" ${only:+--programs "$only"} \
    $( ((sweep)) || echo --no-run )
  exec python3 "$here/report.py"
fi
if ((sweep)); then
  python3 "$here/sweep.py" --python "$py" ${args[@]+"${args[@]}"}
fi
sample=""
for a in ${args[@]+"${args[@]}"}; do [[ "$a" == "--sample" ]] && sample="--sample"; done
"$root/graphmend" --version >/dev/null 2>&1 || true   # builds the jar when stale
python3 "$here/compare.py" --python "$py" $sample
python3 "$here/report.py"
