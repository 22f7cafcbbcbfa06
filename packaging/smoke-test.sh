#!/usr/bin/env bash
# Smoke test of the built bundle (not part of pytest: it takes minutes on a first start).
# Starts the bundled app under Xvfb twice with an empty numba cache, from two different
# launch directories (the first start compiles the kernels, the second loads them), saves a
# screenshot each time, then runs `rmviz solve` and `rmviz export` from the bundle and checks
# the no-display message. Prints the timings docs/packaging.md records.
#
#   packaging/smoke-test.sh [BUNDLE_DIR] [OUT_DIR]   (defaults dist/rmviz, build/smoke)
# Needs xvfb-run (Debian: apt-get install xvfb xauth).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
bundle="$(cd "${1:-$repo/dist/rmviz}" && pwd)"
out="${2:-$repo/build/smoke}"
rmviz="$bundle/rmviz"
rm -rf "$out"
mkdir -p "$out/launch-a" "$out/launch-b"
out="$(cd "$out" && pwd)"
# a fresh per-user cache: the first start below is a real first start
export XDG_CACHE_HOME="$out/cache"
unset NUMBA_CACHE_DIR QT_QPA_PLATFORM
failures=0
check() {  # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok    $1"; else echo "FAIL  $1"; failures=$((failures + 1)); fi
}
seconds() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$@"; }

start() {  # start NAME DIR: the window on rps-crash, a screenshot after 0.5 s of solving
  local began ended
  began=$(date +%s.%N)
  (cd "$2" && xvfb-run -a -s "-screen 0 1600x1000x24" "$rmviz" rps-crash \
    --screenshot "$out/$1.png" --after 0.5 > "$out/$1.log" 2>&1)
  ended=$(date +%s.%N)
  seconds "$began" "$ended" > "$out/$1.seconds"
}

echo "bundle $bundle ($(du -sh "$bundle" | cut -f1)), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
check "rmviz --version" "$rmviz" --version
check "rmviz --help names the window options" sh -c "'$rmviz' --help | grep -q -- '--screenshot FILE'"

start first-start "$out/launch-a"
check "first start: a screenshot ($(cat "$out/first-start.seconds") s)" test -s "$out/first-start.png"
check "the kernels are cached in the per-user cache" \
  sh -c "ls '$XDG_CACHE_HOME'/rmviz/numba/bundle-*/*/*.nbi >/dev/null 2>&1"
start second-start "$out/launch-b"
check "second start, another launch directory: a screenshot ($(cat "$out/second-start.seconds") s)" \
  test -s "$out/second-start.png"
check "nothing was cached beside the launch directories" \
  sh -c "! find '$out/launch-a' '$out/launch-b' -name '*.nbi' | grep -q ."

cd "$out/launch-a"
check "rmviz solve rps-crash (predictive RM+ finds 25/50/25)" \
  sh -c "'$rmviz' solve rps-crash -a predictive-rm+ -n 3000 --json > solve.json && python3 -c \"
import json; row = json.load(open('solve.json'))['average_strategy'][0]
assert max(abs(p - q) for p, q in zip(row, (0.25, 0.5, 0.25))) < 0.01, row\""
check "rmviz solve kuhn (CFR+)" sh -c "'$rmviz' solve kuhn -a cfr+ -n 200 > kuhn.txt"
check "rmviz export: the gaps figure as SVG" sh -c "'$rmviz' export rps-crash -a rm+ -n 2000 --figure gaps --out '$out/gaps.svg' && test -s '$out/gaps.svg'"
check "rmviz export: the dashboard as PNG" sh -c "'$rmviz' export rps-crash -a rm -n 2000 --figure dashboard --out '$out/dashboard.png' && test -s '$out/dashboard.png'"
check "rmviz export reads an example file" sh -c "'$rmviz' export '$bundle/share/examples/shapley.nfg' -a rm -n 500 --figure strategies --out '$out/shapley.png'"
set +e
env -u DISPLAY -u WAYLAND_DISPLAY "$rmviz" > "$out/no-display.log" 2>&1
code=$?
set -e
check "no display: exit 2 and one line ($(head -c 60 "$out/no-display.log")...)" \
  test "$code" = 2 -a "$(wc -l < "$out/no-display.log")" = 1

echo "first start $(cat "$out/first-start.seconds") s, second start $(cat "$out/second-start.seconds") s" \
  "(to a screenshot after 0.5 s of solving, Xvfb); screenshots and logs in $out"
exit $((failures > 0))
