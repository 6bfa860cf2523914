#!/usr/bin/env bash
# bench/unwind.sh — flamekit record's default unwinding against perf's
# DWARF unwinding, in the same run, on a workload without frame pointers
# (tests/workload/fk-nofp.c, cc -O2 -fomit-frame-pointer: main > top_level >
# mid_a > mid_b > leaf_hot), one per CPU, sampled at HZ (997) on every CPU
# for RUN_SECONDS (10):
#
#   CPU       the profiler's own user+sys seconds: flamekit record; perf record
#             --call-graph dwarf plus `perf script | flamekit collapse perf`
#             (perf unwinds in perf script); median of REPS (3) recordings
#   RSS       peak resident set of the recording (perf: the larger of record
#             and script), median of the REPS
#   slowdown  wall time of a fixed amount of work (one workload per CPU) while
#             the profiler samples, over the same work unprofiled (medians)
#   chain     share of the workload's samples whose user stack is the whole
#             chain _start;...;main;top_level;mid_a;mid_b;leaf_hot
#   lost      samples the tool says it lost
#
# Then real, varied work: BUILDS (3) builds of this project (make -B: cc1 has
# no frame pointers, each file is a new process) sampled host-wide, each
# tool recording the whole of them, BUILD_REPS (2) times: CPU, peak RSS,
# build slowdown, the share of cc1's samples whole from _start through
# main, and lost; beside perf and, with LIBBPF_TOOLS_PROFILE (bcc's
# libbpf-tools `profile`, built outside this repository against Debian's
# libbpf), the BPF profiler that counts in the kernel by frame pointers;
# BUILD_TOOLS="flamekit libbpf-tools" runs only those (perf's `perf script`
# of the builds takes about 20 minutes a run here; BUILD_PERF_SCRIPT=0
# leaves it out: perf's row is then its recording's, for the slowdown,
# without cc1's share). Each recording's slowdown is over an unprofiled
# run of the same builds just before it (this machine's builds drift by
# several points between minutes; the tools take turns in each rep), the
# row's the median of the reps'. bpf_us: the BPF profilers' sampling
# program's mean run time a sample, which the sampled builds pay in the
# kernel (kernel.bpf_stats_enabled is on for the builds, then set back):
# the slowdown's part that the noise does not hide.
# Each run prints its own row on stderr (the first flamekit run builds its
# unwind tables, FLAMEKIT_CACHE_DIR is fresh; later ones read them).
# FIXED_WORK=0 runs the builds only.
#
# Needs root and perf (linux-perf).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
HZ=${HZ:-997}
RUN_SECONDS=${RUN_SECONDS:-10}
REPS=${REPS:-3}
export LC_ALL=C

if [[ $(id -u) != 0 ]]; then
	echo "bench/unwind.sh: needs root (BPF and perf events)" >&2
	exit 2
fi
for tool in perf /usr/bin/time bc; do
	command -v $tool > /dev/null || { echo "bench/unwind.sh: needs $tool" >&2; exit 2; }
done
work=$(mktemp -d /var/tmp/flamekit-bench-unwind.XXXXXX)
# kernel.bpf_stats_enabled, turned on for the builds (bpf_us below): set back at the end
bpf_stats_were=$(sysctl -n kernel.bpf_stats_enabled 2> /dev/null || echo)
trap 'rm -rf "$work"; [[ -n $bpf_stats_were ]] && sysctl -qw kernel.bpf_stats_enabled="$bpf_stats_were"' EXIT
cc -O2 -fomit-frame-pointer -o "$work/fk-nofp" "$TOP/tests/workload/fk-nofp.c" || exit 1
cpus=$(nproc)
export FLAMEKIT_CACHE_DIR=$work/cache

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# Runs one workload per CPU for $rounds rounds; prints the wall seconds.
timed_work() {
	local t0 t1 pids=()
	t0=$(date +%s.%N)
	for ((i = 0; i < cpus; i++)); do "$work/fk-nofp" 0 0 "$rounds" & pids+=($!); done
	wait "${pids[@]}"
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}

# record TOOL SECONDS PREFIX: records every CPU; leaves PREFIX.folded and
# PREFIX.cost ("cpu_seconds peak_rss_kb lost")
record() {
	local tool=$1 seconds=$2 prefix=$3 user sys rss puser psys prss lost
	case $tool in
	flamekit)
		/usr/bin/time -f '%U %S %M' -o "$prefix.time" "$BUILD/flamekit" record -F "$HZ" -a \
			-f -o "$prefix.folded" "$seconds" 2> "$prefix.err"
		read -r user sys rss < "$prefix.time"
		lost=$(sed -n 's/.* \([0-9]*\) lost$/\1/p' "$prefix.err")
		echo "$(echo "$user + $sys" | bc -l) $rss ${lost:-?}" > "$prefix.cost"
		;;
	perf)
		/usr/bin/time -f '%U %S %M' -o "$prefix.time" perf record -F "$HZ" -a --call-graph dwarf \
			-o "$prefix.data" -- sleep "$seconds" > /dev/null 2> "$prefix.err"
		read -r user sys rss < "$prefix.time"
		/usr/bin/time -f '%U %S %M' -o "$prefix.post" sh -c "perf script -i '$prefix.data' \
			2> /dev/null | '$BUILD/flamekit' collapse perf > '$prefix.folded'"
		read -r puser psys prss < "$prefix.post"
		(( prss > rss )) && rss=$prss
		lost=$(perf report -i "$prefix.data" --stats 2> /dev/null | awk '/LOST/ { n += $NF } END { printf "%.0f\n", n }')
		echo "$(echo "$user + $sys + $puser + $psys" | bc -l) $rss $lost" > "$prefix.cost"
		;;
	esac
}

# share of fk-nofp's samples with the whole chain (user frames only)
chain_share() {
	awk '/^fk-nofp;/ { n = $NF; t += n
		if ($0 ~ /^fk-nofp;_start;__libc_start_main[^;]*;__libc_start_call_main;main;top_level;mid_a;mid_b;leaf_hot( |;)/) g += n }
		END { if (t) printf "%.1f", 100 * g / t; else print "?" }' "$1"
}

# A fixed amount of work that takes about 4 s unprofiled.
rounds=1000
if [[ ${FIXED_WORK:-1} == 1 ]]; then
	t=$(timed_work)
	rounds=$(echo "$rounds * 4 / $t" | bc)
	base=$(for _ in $(seq "$REPS"); do timed_work; done | median)

	echo "flamekit record unwinding benchmark: $HZ Hz, $cpus CPUs, $RUN_SECONDS s recordings, $REPS runs each, $(uname -r)"
	printf '%-10s %8s %8s %9s %8s %6s\n' tool CPU_s RSS_MB slowdown chain lost
	for tool in flamekit perf; do
		costs=() shares=()
		for rep in $(seq "$REPS"); do
			prefix=$work/$tool.$rep
			for ((i = 0; i < cpus; i++)); do "$work/fk-nofp" $((RUN_SECONDS + 2)) & done
			sleep 0.5
			record "$tool" "$RUN_SECONDS" "$prefix"
			wait
			shares+=("$(chain_share "$prefix.folded")")
		done
		cpu=$(for rep in $(seq "$REPS"); do awk '{ print $1 }' "$work/$tool.$rep.cost"; done | median)
		rss=$(for rep in $(seq "$REPS"); do awk '{ print $2 }' "$work/$tool.$rep.cost"; done | median)
		lost=$(for rep in $(seq "$REPS"); do awk '{ print $3 }' "$work/$tool.$rep.cost"; done | median)
		share=$(printf '%s\n' "${shares[@]}" | median)

		# overhead: the same work while the tool samples every CPU
		slows=()
		for rep in $(seq "$REPS"); do
			case $tool in
			flamekit) "$BUILD/flamekit" record -F "$HZ" -a -f -o "$work/slow.folded" 3600 2> /dev/null & ;;
			perf) perf record -F "$HZ" -a --call-graph dwarf -o "$work/slow.data" > /dev/null 2>&1 & ;;
			esac
			profiler=$!
			sleep 1.5
			slows+=("$(timed_work)")
			kill -INT "$profiler" 2> /dev/null; wait "$profiler" 2> /dev/null
		done
		slow=$(printf '%s\n' "${slows[@]}" | median)
		printf '%-10s %8.2f %8.1f %8.3fx %8s %6s\n' "$tool" "$cpu" "$(echo "$rss / 1024" | bc -l)" \
			"$(echo "$slow / $base" | bc -l)" "$share" "$lost"
	done
fi

# Real, varied work: gcc building this project BUILDS (3) times (make -B:
# cc1 has no frame pointers, and each file is a new process), host-wide,
# each tool recording the whole of it; BUILD_REPS (2) recordings each.
[[ ${BUILD_WORK:-1} == 1 ]] || exit 0
BUILDS=${BUILDS:-3}
BUILD_REPS=${BUILD_REPS:-2}
mkdir -p "$work/tree"
cp -r "$TOP/src" "$TOP/Makefile" "$TOP/tests" "$TOP/completions" "$work/tree/"
builds() { # wall seconds of $BUILDS builds of the copy
	local t0 t1
	t0=$(date +%s.%N)
	for _ in $(seq "$BUILDS"); do make -C "$work/tree" -B -j "$cpus" > /dev/null 2>&1; done
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}
# The mean run time, in microseconds, of the BPF programs named $1 (a
# BPF profiler's sampling program) over their runs so far: time the sampled
# tasks pay in the kernel at each sample, the part of the slowdown that is
# neither the profiler's own CPU nor noise ("-" where it cannot be read:
# perf's sampling is no BPF program).
bpf_us() {
	bpftool prog show 2> /dev/null | awk -v name="$1" '
		/^[0-9]+:/ { mine = 0; for (i = 1; i < NF; i++) if ($i == "name" && $(i + 1) == name) mine = 1 }
		mine { for (i = 1; i < NF; i++) { if ($i == "run_time_ns") ns += $(i + 1); if ($i == "run_cnt") n += $(i + 1) } }
		END { if (n) printf "%.2f", ns / n / 1000; else print "-" }'
}
# share of cc1's samples whose user stack is whole: from _start through main
cc1_whole() {
	awk '/^cc1;/ { n = $NF; t += n; if ($0 ~ /^cc1;_start;[^ ]*;main;/) g += n }
		END { if (t) printf "%.1f", 100 * g / t; else print "?" }' "$1"
}
echo
echo "$BUILDS builds of flamekit (make -B -j $cpus), sampled host-wide at $HZ Hz; slowdown over an unprofiled run just before each;"
echo "bpf_us: the sampling program's mean time a sample (kernel.bpf_stats_enabled), which the builds pay"
command -v bpftool > /dev/null && sysctl -qw kernel.bpf_stats_enabled=1 2> /dev/null
printf '%-15s %8s %8s %9s %9s %6s %7s\n' tool CPU_s RSS_MB slowdown cc1_whole lost bpf_us
# flamekit-dwarf: --unwind=dwarf, every stack copied out (the default before the kernel's walk)
build_tools=(flamekit flamekit-dwarf perf)
if [[ -n ${LIBBPF_TOOLS_PROFILE:-} && -x ${LIBBPF_TOOLS_PROFILE:-} ]]; then
	build_tools+=(libbpf-tools)
else
	echo "(libbpf-tools profile skipped: set LIBBPF_TOOLS_PROFILE)"
fi
# BUILD_TOOLS: only these (perf's `perf script` of the builds takes about 20 minutes a run)
tools=()
for tool in "${build_tools[@]}"; do
	[[ " ${BUILD_TOOLS:-${build_tools[*]}} " == *" $tool "* ]] && tools+=("$tool")
done
# the tools in turn in each rep, so that the machine's drift reaches them alike
for rep in $(seq "$BUILD_REPS"); do
	for tool in "${tools[@]}"; do
		prefix=$work/build-$tool.$rep
		unprofiled=$(builds)
		case $tool in
		flamekit) /usr/bin/time -f '%U %S %M' -o "$prefix.time" "$BUILD/flamekit" record -F "$HZ" \
				-f -o "$prefix.folded" 3600 2> "$prefix.err" & ;;
		flamekit-dwarf) /usr/bin/time -f '%U %S %M' -o "$prefix.time" "$BUILD/flamekit" record \
				--unwind=dwarf -F "$HZ" -f -o "$prefix.folded" 3600 2> "$prefix.err" & ;;
		perf) /usr/bin/time -f '%U %S %M' -o "$prefix.time" perf record -F "$HZ" -a \
				--call-graph dwarf -o "$prefix.data" > /dev/null 2> "$prefix.err" & ;;
		libbpf-tools) /usr/bin/time -f '%U %S %M' -o "$prefix.time" "$LIBBPF_TOOLS_PROFILE" \
				-F "$HZ" -f 3600 > "$prefix.folded" 2> "$prefix.err" & ;;
		esac
		profiler=$!
		sleep 1.5
		wall=$(builds)
		case $tool in
		flamekit*) program_us=$(bpf_us do_sample) ;;
		libbpf-tools) program_us=$(bpf_us do_perf_event) ;;
		*) program_us=- ;;
		esac
		# to the tool, not to /usr/bin/time, which ignores SIGINT while it waits
		pkill -INT -P "$profiler"; wait "$profiler" 2> /dev/null
		# (its last line: a tool stopped by SIGINT makes time say so first)
		read -r user sys rss < <(tail -n 1 "$prefix.time")
		cpu=$(echo "$user + $sys" | bc -l)
		case $tool in
		flamekit*) lost=$(sed -n 's/.* \([0-9]*\) lost$/\1/p' "$prefix.err") ;;
		perf)
			: > "$prefix.folded"
			if [[ ${BUILD_PERF_SCRIPT:-1} == 1 ]]; then
				/usr/bin/time -f '%U %S %M' -o "$prefix.post" sh -c "perf script -i '$prefix.data' \
					2> /dev/null | '$BUILD/flamekit' collapse perf > '$prefix.folded'"
				read -r puser psys prss < <(tail -n 1 "$prefix.post")
				cpu=$(echo "$cpu + $puser + $psys" | bc -l)
				(( prss > rss )) && rss=$prss
			fi
			lost=$(perf report -i "$prefix.data" --stats 2> /dev/null | awk '/LOST/ { n += $NF } END { printf "%.0f\n", n }')
			rm -f "$prefix.data" ;;
		libbpf-tools) lost=$(sed -n 's/^WARNING: \([0-9]*\) stack traces could not be displayed.*/\1/p' "$prefix.err" | grep . || echo 0) ;;
		esac
		row="$cpu $rss $(echo "$wall / $unprofiled" | bc -l) $(cc1_whole "$prefix.folded") ${lost:-?} $program_us"
		echo "$row" >> "$work/build-$tool.rows"
		echo "  $tool run $rep: $row (unprofiled $unprofiled s, profiled $wall s)" >&2
	done
done
for tool in "${tools[@]}"; do
	col() { awk -v c="$1" '{ print $c }' "$work/build-$tool.rows" | median; }
	printf '%-15s %8.2f %8.1f %8.3fx %9s %6s %7s\n' "$tool" "$(col 1)" "$(echo "$(col 2) / 1024" | bc -l)" \
		"$(col 3)" "$(col 4)" "$(col 5)" "$(col 6)"
done
