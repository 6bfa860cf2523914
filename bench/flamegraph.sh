#!/usr/bin/env bash
# `flamekit flamegraph` against flamegraph.pl on the same folded file of
# >= 40k distinct stacks (a 200 MB perf script capture collapsed with --pid,
# so each process keeps its own stacks), in the same run: REPS runs each,
# median wall time, output bytes, frames drawn and peak RSS, and the ratio;
# with the default options and with --minwidth 0 (every frame drawn).
#
#   FLAMEGRAPH_DIR=/path/to/FlameGraph bench/flamegraph.sh
#
# FLAMEGRAPH_DIR: a checkout of FlameGraph (kept outside this repository);
# without it the Perl side is skipped. BENCH_REPS (default 3).
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
FLAMEKIT=$TOP/build/flamekit
SHARED=${FLAMEKIT_SHARED:-$TOP/../shared}
REPS=${BENCH_REPS:-3}
CACHE=${BENCH_CACHE:-${TMPDIR:-/tmp}/flamekit-bench}
export LC_ALL=C

[[ -x $FLAMEKIT ]] || { echo "bench: build first (make)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
source "$TOP/bench/lib.sh"
capture=$(scaled_perf_script 200) || exit 2
folded=$CACHE/pid.folded
[[ -f $folded ]] || "$FLAMEKIT" collapse perf --pid "$capture" -o "$folded"
echo "input: $folded ($(wc -l < "$folded") distinct stacks, $(( $(stat -c %s "$folded") / 1000000 )) MB); $REPS runs each, median"
printf '%-14s %-12s %9s %12s %9s %10s %9s\n' options tool seconds "SVG bytes" frames "RSS MB" ratio

frames() { grep -c '<title>' "$1" || true; }
for options in "" "--minwidth 0"; do
	# shellcheck disable=SC2086 # the options are words
	read -r fk_t fk_rss < <(measure "$FLAMEKIT" flamegraph $options "$folded")
	cp "$CACHE/out" "$CACHE/flamekit.svg"
	label=${options:-default}
	if [[ -n ${FLAMEGRAPH_DIR:-} && -f $FLAMEGRAPH_DIR/flamegraph.pl ]]; then
		# shellcheck disable=SC2086
		read -r pl_t pl_rss < <(measure perl "$FLAMEGRAPH_DIR/flamegraph.pl" $options "$folded")
		printf '%-14s %-12s %9s %12s %9s %10.1f\n' "$label" flamegraph.pl "$pl_t" \
			"$(stat -c %s "$CACHE/out")" "$(frames "$CACHE/out")" "$(awk -v k="$pl_rss" 'BEGIN{print k/1024}')"
		ratio=$(awk -v a="$pl_t" -v b="$fk_t" 'BEGIN{ if (b > 0) printf "%.1fx", a/b; else print "inf" }')
	else
		ratio="(Perl skipped: set FLAMEGRAPH_DIR)"
	fi
	printf '%-14s %-12s %9s %12s %9s %10.1f %9s\n' "$label" flamekit "$fk_t" \
		"$(stat -c %s "$CACHE/flamekit.svg")" "$(frames "$CACHE/flamekit.svg")" \
		"$(awk -v k="$fk_rss" 'BEGIN{print k/1024}')" "$ratio"
done
