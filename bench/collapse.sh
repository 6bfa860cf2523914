#!/usr/bin/env bash
# Throughput of `flamekit collapse perf` against stackcollapse-perf.pl on the
# same >= 200 MB perf script input, in the same run: 3 repetitions each,
# median wall time, MB/s, peak RSS and the ratio. Then flamekit's peak RSS
# on a 1 GB stream (memory must follow distinct stacks, not input size).
# Then one row per other reader with a Perl counterpart (stap, dtrace,
# bpftrace) on >= 100 MB made by repeating a real capture.
#
#   FLAMEGRAPH_DIR=/path/to/FlameGraph bench/collapse.sh [OPTION...]
#   BENCH_ONLY=readers bench/collapse.sh      # just the per-reader rows
#
# FLAMEGRAPH_DIR: a checkout of FlameGraph (kept outside this repository);
# without it the Perl side is skipped. OPTIONS are passed to both tools
# (e.g. --pid). BENCH_MB sets the input size (default 200), BENCH_REPS the
# repetitions (default 3).
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
FLAMEKIT=$TOP/build/flamekit
SHARED=${FLAMEKIT_SHARED:-$TOP/../shared}
MB=${BENCH_MB:-200}
REPS=${BENCH_REPS:-3}
CACHE=${BENCH_CACHE:-${TMPDIR:-/tmp}/flamekit-bench}
export LC_ALL=C

[[ -x $FLAMEKIT ]] || { echo "bench: build first (make)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
source "$TOP/bench/lib.sh"
input=$(scaled_perf_script "$MB") || exit 2
bytes=$(stat -c %s "$input")
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')

if [[ ${BENCH_ONLY:-} != readers ]]; then
echo "input: $input ($mb MB), options: ${*:-(none)}, $REPS runs each, median"
printf '%-26s %10s %10s %12s\n' tool seconds MB/s "peak RSS MB"
row() { # label seconds rss_kb
	printf '%-26s %10s %10.1f %12.1f\n' "$1" "$2" "$(awk -v m="$mb" -v t="$2" 'BEGIN{print m/t}')" "$(awk -v k="$3" 'BEGIN{print k/1024}')"
}
cpus=$(nproc)
read -r fk1_t fk1_rss < <(measure "$FLAMEKIT" collapse perf -j 1 "$@" "$input")
cp "$CACHE/out" "$CACHE/flamekit-1.out"
row "flamekit, 1 thread" "$fk1_t" "$fk1_rss"
read -r fk_t fk_rss < <(measure "$FLAMEKIT" collapse perf "$@" "$input")
cp "$CACHE/out" "$CACHE/flamekit.out"
row "flamekit, $cpus threads" "$fk_t" "$fk_rss"

if [[ -n ${FLAMEGRAPH_DIR:-} && -f $FLAMEGRAPH_DIR/stackcollapse-perf.pl ]]; then
	read -r pl_t pl_rss < <(measure perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" "$@" "$input")
	row "stackcollapse-perf.pl" "$pl_t" "$pl_rss"
	same="identical output"
	cmp -s "$CACHE/out" "$CACHE/flamekit.out" && cmp -s "$CACHE/out" "$CACHE/flamekit-1.out" || same="OUTPUT DIFFERS"
	echo "ratio (throughput flamekit / Perl): 1 thread $(awk -v a="$pl_t" -v b="$fk1_t" 'BEGIN{printf "%.1fx", a/b}'), $cpus threads $(awk -v a="$pl_t" -v b="$fk_t" 'BEGIN{printf "%.1fx", a/b}'); $same"
else
	echo "stackcollapse-perf.pl: skipped (set FLAMEGRAPH_DIR to a FlameGraph checkout)"
fi

# Memory follows distinct stacks, not input size: a 1 GB stream of the same
# captures, with --pid so that every copy's stacks stay distinct.
copies=$(( (1000000000 + bytes - 1) / bytes ))
stream_mb=$(awk -v b="$bytes" -v c="$copies" 'BEGIN { printf "%.0f", b * c / 1e6 }')
/usr/bin/time -f '%e %M' -o "$CACHE/time" sh -c "for i in \$(seq $copies); do cat '$input'; done | '$FLAMEKIT' collapse perf --pid > '$CACHE/out' 2> /dev/null"
read -r t m < "$CACHE/time"
echo "memory: ${stream_mb} MB streamed through a pipe (--pid), $(wc -l < "$CACHE/out") distinct stacks: peak RSS $(awk -v k="$m" 'BEGIN{printf "%.1f", k/1024}') MB"
fi

# --- the other readers -----------------------------------------------------

# repeat_to SOURCE TARGET SKIP: TARGET made of SOURCE repeated to >= 100 MB;
# copies after the first leave out SOURCE's first SKIP lines (a header).
repeat_to() {
	local source=$1 target=$2 skip=$3
	[[ -f $target ]] && return
	local bytes; bytes=$(stat -c %s "$source")
	local copies=$(( (100000000 + bytes - 1) / bytes ))
	perl -e '
		my ($copies, $skip, $file) = @ARGV;
		open my $in, "<", $file or die; my @lines = <$in>; close $in;
		my $body = join "", @lines[$skip .. $#lines];
		print @lines; print $body for 2 .. $copies;' "$copies" "$skip" "$source" > "$target.tmp" &&
		mv "$target.tmp" "$target"
}

reader_row() { # format perl-tool source header-lines
	local format=$1 tool=$2 source=$3 skip=$4
	local input=$CACHE/$format-100MB.txt
	repeat_to "$source" "$input" "$skip"
	local mbr; mbr=$(awk -v b="$(stat -c %s "$input")" 'BEGIN { printf "%.1f", b / 1e6 }')
	read -r f_t f_rss < <(measure "$FLAMEKIT" collapse "$format" "$input")
	cp "$CACHE/out" "$CACHE/$format.flamekit"
	local f_mbs; f_mbs=$(awk -v m="$mbr" -v t="$f_t" 'BEGIN{printf "%.1f", m/t}')
	if [[ -n ${FLAMEGRAPH_DIR:-} && -f $FLAMEGRAPH_DIR/$tool ]]; then
		read -r p_t p_rss < <(measure perl "$FLAMEGRAPH_DIR/$tool" "$input")
		local same="identical"
		if [[ $format == bpftrace ]]; then
			# The Perl tool prints every map entry as it comes, so repeated
			# captures print each stack many times: sum them first. flamekit
			# also reads the "@[, " entries Perl drops: every line Perl
			# prints must be in flamekit's output, the same.
			"$FLAMEKIT" collapse folded "$CACHE/out" > "$CACHE/perl.merged"
			if [[ -n $(comm -23 "$CACHE/perl.merged" "$CACHE/$format.flamekit") ]]; then
				same="DIFFERS"
			else
				same="identical (+ entries Perl drops)"
			fi
		else
			cmp -s "$CACHE/out" "$CACHE/$format.flamekit" || same="DIFFERS"
		fi
		printf '%-9s %7s MB %9s %9s MB/s %8.1f MB %9s %9s MB/s %8.1f MB %7s  %s\n' "$format" "$mbr" \
			"$f_t" "$f_mbs" "$(awk -v k="$f_rss" 'BEGIN{print k/1024}')" \
			"$p_t" "$(awk -v m="$mbr" -v t="$p_t" 'BEGIN{printf "%.1f", m/t}')" \
			"$(awk -v k="$p_rss" 'BEGIN{print k/1024}')" \
			"$(awk -v a="$p_t" -v b="$f_t" 'BEGIN{printf "%.1fx", a/b}')" "$same"
	else
		printf '%-9s %7s MB %9s %9s MB/s %8.1f MB  (Perl skipped: set FLAMEGRAPH_DIR)\n' "$format" "$mbr" \
			"$f_t" "$f_mbs" "$(awk -v k="$f_rss" 'BEGIN{print k/1024}')"
	fi
}

echo
echo "other readers ($REPS runs each, median): flamekit vs the Perl collapser"
printf '%-9s %10s %9s %14s %11s %9s %14s %11s %7s  %s\n' format input "fk s" "fk MB/s" "fk RSS" "perl s" \
	"perl MB/s" "perl RSS" ratio output
reader_row stap stackcollapse-stap.pl "$SHARED/conformance/stap/inputs/user-kernel.txt" 0
reader_row dtrace stackcollapse.pl "$SHARED/conformance/flamegraph-pl/example-dtrace-stacks.txt" 3
reader_row bpftrace stackcollapse-bpftrace.pl "$SHARED/conformance/bpftrace/inputs/kstack-ustack-comm.txt" 0

# --- perf report -g folded, end to end --------------------------------------
# The same perf.data two ways, CPU seconds (user + sys) of the whole pipeline:
#   perf script | stackcollapse-perf.pl     (the classic way)
#   perf report -g folded | flamekit collapse perf-folded
if ! command -v perf > /dev/null; then
	echo; echo "perf-folded end to end: skipped (no perf)"
	exit 0
fi
data=$CACHE/perf.data
if [[ ! -f $data ]]; then
	echo "bench: recording $data (10 s, 999 Hz, all CPUs) ..." >&2
	perf record -q -F 999 -a -g -o "$data" -- sh -c \
		"for i in 1 2 3 4; do sort -R '$input' | head -c 50000000 | gzip -1 > /dev/null & done; wait" \
		> /dev/null 2>&1 || { echo "perf-folded end to end: skipped (perf record failed)"; exit 0; }
fi
cpu() { # pipeline: prints user+sys seconds of the median run
	local times=()
	for ((i = 0; i < REPS; i++)); do
		/usr/bin/time -f '%U %S' -o "$CACHE/time" sh -c "$1" > "$CACHE/pipe.out" 2> /dev/null
		times+=("$(awk '{ printf "%.2f", $1 + $2 }' "$CACHE/time")")
	done
	printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (REPS + 1) / 2 ))p"
}
echo
echo "perf-folded end to end on $data ($(du -m "$data" | cut -f1) MB; CPU seconds, median of $REPS):"
fk_cpu=$(cpu "perf report -i '$data' --stdio --no-children -n -g folded,0,caller,count -s comm 2>/dev/null | '$FLAMEKIT' collapse perf-folded")
cp "$CACHE/pipe.out" "$CACHE/report.folded"
printf '  %-58s %6s s\n' "perf report -g folded | flamekit collapse perf-folded" "$fk_cpu"
fkp_cpu=$(cpu "perf script -i '$data' 2>/dev/null | '$FLAMEKIT' collapse perf")
printf '  %-58s %6s s\n' "perf script | flamekit collapse perf" "$fkp_cpu"
if [[ -n ${FLAMEGRAPH_DIR:-} && -f $FLAMEGRAPH_DIR/stackcollapse-perf.pl ]]; then
	pl_cpu=$(cpu "perf script -i '$data' 2>/dev/null | perl '$FLAMEGRAPH_DIR/stackcollapse-perf.pl'")
	printf '  %-58s %6s s\n' "perf script | stackcollapse-perf.pl" "$pl_cpu"
	echo "  ratio (perf script | Perl) / (perf report | flamekit): $(awk -v a="$pl_cpu" -v b="$fk_cpu" 'BEGIN{printf "%.1fx", a/b}')"
fi
