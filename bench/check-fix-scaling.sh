#!/usr/bin/env bash
# Issue 17, "check and fix time linear in diagnostics": `graphmend check` and `graphmend fix
# --diff` on dense files of 170 and 850 copies of bench/dense_file.py's six modules (about 10k
# lines / 1k diagnostics and 50k lines / 5k diagnostics), whole processes under /usr/bin/time -v:
# wall seconds and peak RSS of each, best of RUNS, and the ratio of the big file to the small one
# (linear: about 5). Writes bench/out/check-fix-scaling-DATE.txt.
#   bench/check-fix-scaling.sh [RUNS]        (default 3)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-3}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$root/graphmend" --version >/dev/null
jar="$root/server/target/graphmend.jar"
out="$root/bench/out/check-fix-scaling-$(date -u +%Y-%m-%d).txt"
measure() { # measure LABEL CMD...: best wall and its peak RSS over $runs runs
    local best="" rss=""
    shift
    for _ in $(seq "$runs"); do
        /usr/bin/time -v -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || true
        local wall kb
        wall="$(awk -F': ' '/Elapsed \(wall clock\)/{n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$tmp/time")"
        kb="$(awk -F': ' '/Maximum resident set size/{print $2}' "$tmp/time")"
        if [[ -z "$best" ]] || python3 -c "import sys; sys.exit(not $wall < $best)"; then best="$wall"; rss="$kb"; fi
    done
    printf '%s %s\n' "$best" "$((rss / 1024))"
}
{
    echo "# graphmend check / fix --diff on dense files ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, graphmend $(git -C "$root" rev-parse --short HEAD), best of $runs)"
    printf '%-8s %7s %11s %10s %9s %12s %10s\n' copies lines diagnostics check_s check_MB fix_diff_s fix_MB
} | tee "$out"
declare -A T
for copies in 170 850; do
    f="$tmp/dense_$copies.py"
    python3 "$root/bench/dense_file.py" "$copies" "$f"
    lines="$(wc -l <"$f")"
    diags="$(java -jar "$jar" check --output-format json "$f" 2>/dev/null | python3 -c 'import json,sys; print(sum(len(x["diagnostics"]) for x in json.load(sys.stdin)["files"]))' || true)"
    read -r cs cm < <(measure check "$root/graphmend" check -q "$f")
    read -r fs fm < <(measure fix "$root/graphmend" fix --diff -q "$f")
    T[$copies]="$cs $fs"
    printf '%-8s %7s %11s %10s %9s %12s %10s\n' "$copies" "$lines" "$diags" "$cs" "$cm" "$fs" "$fm" | tee -a "$out"
done
read -r c1 f1 <<<"${T[170]}"; read -r c5 f5 <<<"${T[850]}"
python3 -c "print('ratio 850/170 copies: check %.2fx, fix --diff %.2fx (linear: 5x; the bar: within 5x of the small file at 5x the diagnostics, and <= 1 GB)' % ($c5/$c1, $f5/$f1))" | tee -a "$out"
echo "written: $out"
