#!/usr/bin/env bash
# `flamekit view`'s page in headless Chromium (the browser tests' tooling,
# tests/browser): a generated profile of 1,000,000 samples, 100,000 distinct
# frames and a 600 s timeline in 20 ms slices (bench/view_profile.mjs), its
# HTML's size, and times from the Performance API (bench/view.mjs): first
# paint, hover, zoom, range select -> flame graph, table sort, each against
# its target; and speedscope's first paint on the same profile, in the same
# run, when its npm package can be installed into a scratch directory
# outside the repository (BENCH_CACHE/speedscope; never committed).
#
#   bench/view.sh          BENCH_CACHE (default /tmp/flamekit-bench), BENCH_REPS (5),
#                          SCREENSHOT=FILE.png (the README's doc/view.png)
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
FLAMEKIT=$TOP/build/flamekit
CACHE=${BENCH_CACHE:-${TMPDIR:-/tmp}/flamekit-bench}
SPEEDSCOPE_VERSION=1.22.2
export LC_ALL=C

[[ -x $FLAMEKIT ]] || { echo "bench: build first (make)" >&2; exit 2; }
command -v node > /dev/null || { echo "bench: needs node (./setup.sh)" >&2; exit 2; }
mkdir -p "$CACHE"
profile=$CACHE/view-1m
[[ -f $profile.timed && -f $profile.speedscope.js ]] || node "$TOP/bench/view_profile.mjs" "$profile"
"$FLAMEKIT" view -o "$CACHE/view.html" "$profile.timed"

speedscope=$CACHE/speedscope/node_modules/speedscope
if [[ ! -f $speedscope/dist/release/index.html ]] && command -v npm > /dev/null; then
	mkdir -p "$CACHE/speedscope"
	(cd "$CACHE/speedscope" && npm install --no-audit --no-fund --silent "speedscope@$SPEEDSCOPE_VERSION" > /dev/null 2>&1) ||
		echo "bench: could not install speedscope with npm; its column is skipped" >&2
fi
args=("$CACHE/view.html")
[[ -f $speedscope/dist/release/index.html ]] && args+=("$speedscope" "$profile.speedscope.js")
times=$(node "$TOP/bench/view.mjs" "${args[@]}")
get() { awk -v k="$1" '$1 " " $2 == k { print $3 }' <<< "$times"; }

echo "input: $(( $(grep -c . "$profile.timed") - 1 )) (slice, stack) lines of $profile.timed; times are medians"
printf '%-24s %12s %12s %6s %12s\n' measure flamekit target met speedscope
row() { # name value target unit [speedscope]
	local met; met=$(awk -v v="$2" -v t="$3" 'BEGIN { print (v <= t) ? "yes" : "NO" }')
	printf '%-24s %12s %12s %6s %12s\n' "$1" "$2 $4" "$3 $4" "$met" "${5:--}"
}
row "HTML size" "$(awk -v b="$(stat -c %s "$CACHE/view.html")" 'BEGIN { printf "%.1f", b / 1e6 }')" 20 MB
ss=$(get "speedscope first-paint")
row "first paint" "$(get "flamekit first-paint")" 1000 ms "${ss:+$ss ms}"
row "hover" "$(get "flamekit hover")" 16 ms
row "zoom" "$(get "flamekit zoom")" 16 ms
row "range select -> graph" "$(get "flamekit range-select")" 200 ms
row "table sort" "$(get "flamekit table-sort")" 100 ms
if [[ -n $ss ]]; then
	awk -v a="$ss" -v b="$(get "flamekit first-paint")" 'BEGIN { printf "first paint: flamekit %.1fx ahead of speedscope\n", a / b }'
else
	echo "speedscope: not measured (npm or its package unavailable)"
fi
