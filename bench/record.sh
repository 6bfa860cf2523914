#!/usr/bin/env bash
# bench/record.sh — flamekit record against the other ways to sample stacks,
# in the same run, on the same workload (tests/workload/fk-7030.c: 70% of
# its CPU in seventy(), 30% in thirty()), at HZ (997) on every CPU:
#
#   attach    ms from execve to the last perf_event_open / PERF_EVENT_IOC_SET_BPF
#             / BPF_LINK_CREATE (strace -f -ttt), median of REPS (3) one-second runs
#   RSS       peak resident set of a RUN_SECONDS (10) recording, /usr/bin/time
#   CPU       the profiler's own user+sys seconds for that recording (perf: plus
#             `perf script | stackcollapse-perf.pl`, its post-processing)
#   slowdown  wall time of a fixed amount of work (one workload per CPU) while
#             the profiler samples, over the same work unprofiled
#   seventy   seventy()'s share of seventy()+thirty() samples (70 is right)
#   lost      samples or stacks the tool says it lost
#
# flamekit twice: with its kernel symbol cache (later runs of a boot) and
# without (the first run; the cache saves reading /proc/kallsyms); and with
# --unwind=fp (frame pointers walked in the kernel) where it has that option.
#
# Needs root. Peers, each skipped when absent:
#   LIBBPF_TOOLS_PROFILE  bcc's libbpf-tools `profile`, built outside this
#                         repository against Debian's libbpf (see README)
#   bpftrace, perf        from PATH
#   FLAMEGRAPH_DIR        FlameGraph checkout, for stackcollapse-perf.pl
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
HZ=${HZ:-997}
RUN_SECONDS=${RUN_SECONDS:-10}
REPS=${REPS:-3}
LIBBPF_TOOLS_PROFILE=${LIBBPF_TOOLS_PROFILE:-}
FLAMEGRAPH_DIR=${FLAMEGRAPH_DIR:-}
export LC_ALL=C

if [[ $(id -u) != 0 ]]; then
	echo "bench/record.sh: needs root (BPF and perf events)" >&2
	exit 2
fi
for tool in strace /usr/bin/time; do
	command -v $tool > /dev/null || { echo "bench/record.sh: needs $tool" >&2; exit 2; }
done
work=$(mktemp -d /tmp/flamekit-bench-record.XXXXXX)
trap 'rm -rf "$work"' EXIT
cc -O0 -fno-omit-frame-pointer -fno-inline -o "$work/fk-7030" "$TOP/tests/workload/fk-7030.c" || exit 1
cpus=$(nproc)

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# The command line that records for $2 seconds into $3.* for tool $1.
tool_command() { # tool seconds prefix
	case $1 in
	flamekit) echo "$BUILD/flamekit record -F $HZ -f -o $3.folded $2" ;;
	flamekit-cold) echo "env FLAMEKIT_CACHE_DIR= $BUILD/flamekit record -F $HZ -f -o $3.folded $2" ;;
	flamekit-fp) echo "$BUILD/flamekit record --unwind=fp -F $HZ -f -o $3.folded $2" ;;
	libbpf-tools) echo "$LIBBPF_TOOLS_PROFILE -F $HZ -f $2" ;;
	bpftrace) echo "bpftrace -e profile:hz:$HZ{@[kstack,ustack,comm]=count();}interval:s:$2{exit();}" ;;
	perf) echo "perf record -F $HZ -a -g -o $3.data -- sleep $2" ;;
	esac
}

# Folded stacks of a finished recording, into $2.folded.
tool_folded() { # tool prefix
	case $1 in
	flamekit | flamekit-cold | flamekit-fp) ;;
	libbpf-tools) cp "$2.out" "$2.folded" ;;
	bpftrace) "$BUILD/flamekit" collapse bpftrace "$2.out" > "$2.folded" 2> /dev/null ;;
	perf) perf script -i "$2.data" 2> /dev/null | perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" > "$2.folded" ;;
	esac
}

tool_lost() { # tool prefix
	case $1 in
	flamekit | flamekit-cold | flamekit-fp) sed -n 's/.* \([0-9]*\) lost$/\1/p' "$2.err" ;;
	libbpf-tools) sed -n 's/^WARNING: \([0-9]*\) stack traces could not be displayed.*/\1/p' "$2.err" | grep . || echo 0 ;;
	bpftrace) grep -o 'Lost [0-9]*' "$2.err" | awk '{ n += $2 } END { printf "%.0f\n", n }' ;;
	perf) perf report -i "$2.data" --stats 2> /dev/null | awk '/LOST/ { n += $NF } END { printf "%.0f\n", n }' ;;
	esac
}

attach_ms() { # tool
	local trace=$work/trace
	# shellcheck disable=SC2046 # the command line is split on purpose
	strace --seccomp-bpf -f -ttt -qq -o "$trace" -e trace=execve,perf_event_open,ioctl,bpf \
		$(tool_command "$1" 1 "$work/attach") > /dev/null 2>&1
	awk '
		/execve\(/ && !start { start = $2 }
		/perf_event_open\(/ && !/= -1/ { last = $2 }
		/PERF_EVENT_IOC_SET_BPF/ && /= 0/ { last = $2 }
		/bpf\(BPF_LINK_CREATE/ && !/= -1/ { last = $2 }
		END { if (start && last) printf "%.1f\n", (last - start) * 1000; else print "?" }' "$trace"
}

# Runs one workload per CPU for ROUNDS rounds; prints the wall seconds.
timed_work() {
	local t0 t1 pids=()
	t0=$(date +%s.%N)
	for ((i = 0; i < cpus; i++)); do "$work/fk-7030" 0 "$rounds" & pids+=($!); done
	wait "${pids[@]}"
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}

# flamekit keeps the kernel's symbols for the boot (kernel_symbols.h): the
# "flamekit" row runs with this run's own cache, warmed by its attach runs;
# "flamekit-cold" runs without one, as the first run of a boot does.
export FLAMEKIT_CACHE_DIR=$work/cache
tools=(flamekit flamekit-cold)
# the frame-pointer walk in the kernel, as record did before --unwind (the
# default copies stacks: libc's frames have no frame pointers)
"$BUILD/flamekit" record --help | grep -q -- --unwind && tools+=(flamekit-fp)
[[ -n $LIBBPF_TOOLS_PROFILE && -x $LIBBPF_TOOLS_PROFILE ]] && tools+=(libbpf-tools) ||
	echo "(libbpf-tools profile skipped: set LIBBPF_TOOLS_PROFILE)"
command -v bpftrace > /dev/null && tools+=(bpftrace) || echo "(bpftrace skipped: not installed)"
if command -v perf > /dev/null && [[ -n $FLAMEGRAPH_DIR ]]; then tools+=(perf); else
	echo "(perf skipped: needs perf and FLAMEGRAPH_DIR)"; fi

# A fixed amount of work that takes about 4 s unprofiled.
rounds=1000
t=$(timed_work)
rounds=$(echo "$rounds * 4 / $t" | bc)
base=$(for _ in $(seq "$REPS"); do timed_work; done | median)

echo "flamekit record benchmark: $HZ Hz, $cpus CPUs, $RUN_SECONDS s recordings, $(uname -r)"
printf '%-13s %9s %8s %8s %9s %8s %6s\n' tool attach_ms RSS_MB CPU_s slowdown seventy lost
for tool in "${tools[@]}"; do
	attach=$(for _ in $(seq "$REPS"); do attach_ms "$tool"; done | median)

	# the recording: one workload per CPU for its whole length
	prefix=$work/$tool
	for ((i = 0; i < cpus; i++)); do "$work/fk-7030" $((RUN_SECONDS + 2)) & done
	sleep 0.5
	# shellcheck disable=SC2046
	/usr/bin/time -f '%U %S %M' -o "$prefix.time" $(tool_command "$tool" "$RUN_SECONDS" "$prefix") \
		> "$prefix.out" 2> "$prefix.err"
	wait
	read -r user sys rss < "$prefix.time"
	cpu=$(echo "$user + $sys" | bc -l)
	if [[ $tool == perf ]]; then
		/usr/bin/time -f '%U %S' -o "$prefix.post" sh -c \
			"perf script -i '$prefix.data' 2> /dev/null | perl '$FLAMEGRAPH_DIR/stackcollapse-perf.pl' > /dev/null"
		read -r puser psys < "$prefix.post"
		cpu=$(echo "$cpu + $puser + $psys" | bc -l)
	fi
	tool_folded "$tool" "$prefix"
	share=$(awk '{ n = $NF } /(^|;)seventy[+; ]/ { a += n } /(^|;)thirty[+; ]/ { b += n }
		END { if (a + b) printf "%.1f", 100 * a / (a + b); else print "?" }' "$prefix.folded")
	lost=$(tool_lost "$tool" "$prefix")

	# overhead: the same work while the tool samples every CPU
	# shellcheck disable=SC2046
	$(tool_command "$tool" 3600 "$work/slow") > /dev/null 2>&1 & profiler=$!
	sleep 1.5
	slow=$(timed_work)
	kill -INT "$profiler" 2> /dev/null; wait "$profiler" 2> /dev/null
	slowdown=$(echo "$slow / $base" | bc -l)

	printf '%-13s %9s %8.1f %8.2f %8.3fx %8s %6s\n' "$tool" "$attach" "$(echo "$rss / 1024" | bc -l)" \
		"$cpu" "$slowdown" "$share" "${lost:-?}"
done
