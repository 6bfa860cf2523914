#!/usr/bin/env bash
# bench/interp.sh — what Python frames cost `flamekit record`, in the same run:
# the Python workload (tests/workload/fk-python.py's fixed-work mode on
# Debian's /usr/bin/python3.N, one process per CPU) recorded with -p at 99
# and 997 Hz, with Python frames (the default) and with --no-python, against
# the same work unprofiled:
#
#   slowdown  the workloads' wall time for their fixed work over the
#             unprofiled run's (each reports its own)
#   CPU       flamekit's own user+sys seconds for a RUN_SECONDS recording
#   named     the share of the workloads' samples with a Python frame
#
# Targets (issue 19): slowdown no more than 1 point above --no-python's, own
# CPU at most 2x --no-python's. REPS (3) runs of each, the modes alternated,
# medians. Needs root.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
REPS=${REPS:-3}
ITERATIONS=${ITERATIONS:-150}   # about 5 s of work on this machine
RUN_SECONDS=${RUN_SECONDS:-8}
export LC_ALL=C

if [[ $(id -u) != 0 ]]; then
	echo "bench/interp.sh: needs root (BPF and perf events)" >&2
	exit 2
fi
python=$(ls /usr/bin/python3.[0-9]* 2> /dev/null | grep -m1 -E 'python3\.[0-9]+$')
[[ -n $python ]] || { echo "bench/interp.sh: no /usr/bin/python3.N" >&2; exit 2; }
work=$(mktemp -d /tmp/flamekit-bench-interp.XXXXXX)
trap 'rm -rf "$work"' EXIT
cpus=$(nproc)

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# One run: the workloads, recorded as MODE says (none, no-python, python);
# prints "slowdown_base_wall cpu named%".
run() { # mode hz
	local mode=$1 hz=$2 pids=() i
	for ((i = 0; i < cpus; i++)); do
		"$python" "$TOP/tests/workload/fk-python.py" "$ITERATIONS" work 2> "$work/wall.$i" &
		pids+=($!)
	done
	local cpu=0 named=0
	if [[ $mode != none ]]; then
		local opt=(); [[ $mode == no-python ]] && opt=(--no-python)
		/usr/bin/time -f '%U %S' -o "$work/time" "$BUILD/flamekit" record -F "$hz" -f \
			"${opt[@]}" -p "$(IFS=,; echo "${pids[*]}")" "$RUN_SECONDS" \
			> "$work/out.folded" 2> /dev/null
		cpu=$(awk '{ print $1 + $2 }' "$work/time")
		named=$(awk '/^fk-python;/ { t += $NF; if ($0 ~ / \(fk-python\.py\)/) g += $NF }
			END { printf "%.1f", t ? 100 * g / t : 0 }' "$work/out.folded")
	fi
	wait "${pids[@]}"
	local wall; wall=$(cat "$work"/wall.* | awk '{ s += $2 } END { printf "%.3f", s / NR }')
	echo "$wall $cpu $named"
}

printf '%-6s %-22s %9s %9s %10s %7s\n' Hz mode wall_s slowdown own_CPU_s named
for hz in 99 997; do
	: > "$work/none" ; : > "$work/no-python"; : > "$work/python"
	for ((r = 0; r < REPS; r++)); do
		# alternated, so that a change of load on the machine falls on all
		for mode in none no-python python; do
			run "$mode" "$hz" >> "$work/$mode"
		done
	done
	base=$(awk '{ print $1 }' "$work/none" | median)
	for mode in none no-python python; do
		wall=$(awk '{ print $1 }' "$work/$mode" | median)
		cpu=$(awk '{ print $2 }' "$work/$mode" | median)
		named=$(awk '{ print $3 }' "$work/$mode" | median)
		label=$mode; [[ $mode == none ]] && label="unprofiled"
		[[ $mode == no-python ]] && label="record --no-python"
		[[ $mode == python ]] && label="record (Python frames)"
		printf '%-6s %-22s %9s %9s %10s %6s%%\n' "$hz" "$label" "$wall" \
			"$(awk -v a="$wall" -v b="$base" 'BEGIN { printf "%.3fx", a / b }')" \
			"$([[ $mode == none ]] && echo - || echo "$cpu")" "$([[ $mode == none ]] && echo - || echo "$named")"
	done
	np=$(awk '{ print $2 }' "$work/no-python" | median)
	py=$(awk '{ print $2 }' "$work/python" | median)
	npw=$(awk '{ print $1 }' "$work/no-python" | median)
	pyw=$(awk '{ print $1 }' "$work/python" | median)
	awk -v hz="$hz" -v np="$np" -v py="$py" -v npw="$npw" -v pyw="$pyw" -v b="$base" 'BEGIN {
		printf "%-6s Python frames: slowdown %+.1f points over --no-python (target <= 1), own CPU %.2fx (target <= 2)\n",
			hz, 100 * (pyw - npw) / b, (np > 0 ? py / np : 0) }'
done
