#!/usr/bin/env bash
# `make fuzz-smoke`: every libFuzzer target (build/fuzz/NAME, `make fuzz`)
# runs for SECONDS (default 60) from its seeds and regression inputs, one
# target after the other, and the run fails on the first that does not end
# clean. Run it before closing anything that touches a reader or writer: a
# replay in `make check` only proves the known inputs, and a target whose
# own checker breaks goes unnoticed until someone fuzzes.
#
# tests/fuzz/smoke.sh BUILD_DIR [SECONDS [TARGET...]]   (default: every target)
#
# Each target's corpus is a scratch copy (the seeds stay as they are); a
# crash leaves its input in the scratch directory, named in the message,
# to be added to tests/fuzz/regressions/TARGET/ with the fix. Prints one
# line per target (runs, runs a second, coverage, peak memory) and exits 1
# if any target crashed, leaked, timed out or was not built.
set -u
shopt -s nullglob
BUILD=$(cd "${1:-build}" && pwd)
SECONDS_EACH=${2:-60}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/flamekit-fuzz.XXXXXX")
shift 2 2> /dev/null
only=" $* "

failed=0
printf '%-12s %10s %8s %6s %6s %8s  %s\n' target runs runs/s cov ft rss result
for source in "$TOP"/tests/fuzz/*.c; do
	target=$(basename "$source" .c)
	[[ $target == replay ]] && continue
	[[ $# -gt 0 && $only != *" $target "* ]] && continue
	binary=$BUILD/fuzz/$target
	if [[ ! -x $binary ]]; then
		echo "$target: no $binary (run make fuzz)"
		failed=1
		continue
	fi
	corpus=$SCRATCH/$target
	mkdir -p "$corpus"
	inputs=("$TOP/tests/fuzz/seeds/$target"/* "$TOP/tests/fuzz/regressions/$target"/*)
	[[ ${#inputs[@]} -gt 0 ]] && cp "${inputs[@]}" "$corpus"/
	log=$SCRATCH/$target.log
	# -timeout: one input for more than 10 s is a hang; run in the scratch
	# directory so that nothing the target writes lands in the checkout
	(cd "$SCRATCH" && "$binary" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$SCRATCH/$target-" "$corpus" > "$log" 2>&1)
	rc=$?
	stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }
	# the last status line: "#N DONE cov: C ft: F corp: ..."
	cov=$(grep -ao 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
	ft=$(grep -ao 'ft: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
	result=clean
	if [[ $rc != 0 ]]; then
		artifact=$(sed -n 's/.*Test unit written to //p' "$log" | tail -n 1)
		result="FAILED (exit $rc): $(grep -a -m 1 -E 'ERROR|runtime error|svg fuzz|deadly signal' "$log")"
		[[ -n $artifact ]] && result+="; input $artifact (kept, with the log $log)"
		failed=1
	fi
	printf '%-12s %10s %8s %6s %6s %8s  %s\n' "$target" "$(stat number_of_executed_units)" \
		"$(stat average_exec_per_sec)" "${cov:-?}" "${ft:-?}" "$(stat peak_rss_mb)MB" "$result"
done
if [[ $failed == 0 ]]; then
	rm -rf "$SCRATCH"
	echo "fuzz-smoke: every target ran ${SECONDS_EACH} s clean"
else
	echo "fuzz-smoke: FAILED; logs and inputs in $SCRATCH"
fi
exit $failed
