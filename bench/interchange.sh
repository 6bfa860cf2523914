#!/usr/bin/env bash
# pprof against folded stacks on the same profile, in the same run: the
# 1,000,000-sample, 100,000-frame profile bench/view.sh generates
# (bench/view_profile.mjs), its time slices summed into folded stacks.
# Each phase is timed on its own (bench/interchange_phases.c, built here
# against build/obj: the readers and writers the commands use), REPS runs,
# median; then the whole commands, for what a user waits.
# Targets: pprof written in <= 1.5x the folded writer's time, read back in
# <= 1.5x the folded reader's time, and no larger than `gzip -6` of the
# folded text. The same table follows for real captures (FlameGraph's perf
# examples scaled up, processes apart: bench/flamegraph.sh's input) when
# ../shared has them.
#
#   bench/interchange.sh        BENCH_CACHE (default /tmp/flamekit-bench), BENCH_REPS (7)
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
FLAMEKIT=$TOP/build/flamekit
CACHE=${BENCH_CACHE:-${TMPDIR:-/tmp}/flamekit-bench}
REPS=${BENCH_REPS:-7}
SHARED=${FLAMEKIT_SHARED:-$TOP/../shared}
export LC_ALL=C

[[ -x $FLAMEKIT ]] || { echo "bench: build first (make)" >&2; exit 2; }
command -v node > /dev/null || { echo "bench: needs node to make the profile (./setup.sh)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
source "$TOP/bench/lib.sh"
mkdir -p "$CACHE"
profile=$CACHE/view-1m
[[ -f $profile.timed && -f $profile.speedscope.js ]] || node "$TOP/bench/view_profile.mjs" "$profile"
folded=$CACHE/interchange.folded
[[ -f $folded && $folded -nt $profile.timed ]] || "$FLAMEKIT" collapse timed "$profile.timed" -o "$folded"

# the timer, linked with the library objects `make` built
objects=$(ls "$TOP"/build/obj/{lib,profile,readers,writers,symbolize}/*.o)
# shellcheck disable=SC2086
cc -O2 -std=c11 -D_GNU_SOURCE -o "$CACHE/interchange_phases" "$TOP/bench/interchange_phases.c" $objects \
	-lbpf -ldw -lelf -lz -ldeflate -lisal -lxxhash -liberty -lm -pthread

# phases FOLDED: the table for one input
phases_table() {
	local folded=$1 samples phases gz_bytes pprof_bytes
	samples=$(awk '{ n += $NF } END { print n }' "$folded")
	echo "input: $folded: $(wc -l < "$folded") stacks, $(cut -d' ' -f1 "$folded" | tr ';' '\n' | sort -u | wc -l) distinct frames, $samples samples, $(( $(stat -c %s "$folded") / 1000000 )) MB; $REPS runs, medians"
	phases=$("$CACHE/interchange_phases" "$folded" "$CACHE" "$REPS")
	get() { awk -v k="$1" '$1 == k { print $2 }' <<< "$phases"; }
	gzip -6 -c "$folded" > "$CACHE/interchange-input.gz"
	gz_bytes=$(stat -c %s "$CACHE/interchange-input.gz")
	pprof_bytes=$(get pprof-bytes)
	printf '%-34s %12s %12s %8s %8s %5s\n' measure pprof folded ratio target met
	row "write (pprof: encode + gzip)" "$(get write-pprof)" "$(get write-folded)" s 1.5
	row "read (pprof: gunzip + decode)" "$(get read-pprof)" "$(get read-folded)" s 1.5
	row "size (pprof vs gzip -6 of folded)" "$pprof_bytes" "$gz_bytes" B 1.0
}
row() { # name pprof folded unit target
	local ratio; ratio=$(awk -v a="$2" -v b="$3" 'BEGIN { printf "%.2f", a / b }')
	printf '%-34s %12s %12s %8s %8s %5s\n' "$1" "$2$4" "$3$4" "${ratio}x" "<= $5x" \
		"$(awk -v r="$ratio" -v t="$5" 'BEGIN { print r <= t ? "yes" : "NO" }')"
}
phases_table "$folded"
# the same on real work: FlameGraph's perf captures, scaled up with their
# processes kept apart (bench/flamegraph.sh's input), when ../shared has them
if capture=$(scaled_perf_script 200 2> /dev/null); then
	real=$CACHE/pid.folded
	[[ -f $real ]] || "$FLAMEKIT" collapse perf --pid "$capture" -o "$real"
	echo
	phases_table "$real"
	echo
else
	echo "real captures: skipped (no ../shared/conformance)"
fi

echo "whole commands (median of $REPS, wall seconds):"
read -r t_ff _ < <(measure "$FLAMEKIT" collapse folded "$folded" -o "$CACHE/cmd.folded")
read -r t_fp _ < <(measure "$FLAMEKIT" collapse folded "$folded" -o "$CACHE/cmd.pb.gz")
read -r t_pf _ < <(measure "$FLAMEKIT" collapse "$CACHE/cmd.pb.gz" -o "$CACHE/back.folded")
cmp -s "$CACHE/back.folded" "$CACHE/cmd.folded" && same="the same folded stacks back" || same="DIFFERENT folded stacks back"
printf '  collapse folded -> .folded %s, folded -> .pb.gz %s, .pb.gz -> .folded %s (%s)\n' "$t_ff" "$t_fp" "$t_pf" "$same"
