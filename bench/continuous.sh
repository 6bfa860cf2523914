#!/usr/bin/env bash
# record --every --push over a long run, to the loopback receiver
# (tests/push_receiver.py) on 127.0.0.1: the whole machine at 99 Hz,
# --every 10 for BENCH_SECONDS (default 600, ten minutes), twice: with the
# receiver up throughout, and with it answering 503 for the middle 3/10 of
# the run (three minutes of ten). The machine is kept busy with varied,
# real work meanwhile: gcc building this project (make -B -j CPUS, a copy
# of the tree) over and over, thousands of short processes, each binary
# without frame pointers. For each run: flamekit's own CPU (user + sys
# over wall time, as a share of one CPU), its RSS sampled at each window
# (first, last, most: flat means no growth from window to window), and the
# windows expected, delivered once, delivered twice, and lost.
# Before the runs, a warm-up of BENCH_WARMUP seconds (default 60: a few
# builds) records the same way into the run's fresh cache directory: the
# unwind tables of every binary the builds run are built then, once per
# binary and host as an agent's first minutes build them, and its own CPU
# is printed apart; the runs measure an agent that has been up since
# (BENCH_WARMUP=0: none; the first run builds them).
# Needs root (record), python3, make and cc.
#
#   sudo bench/continuous.sh           BENCH_SECONDS (600), BENCH_EVERY (10),
#                                      BENCH_BUSY (1; 0: no builds),
#                                      BENCH_WARMUP (60)
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
FLAMEKIT=$TOP/build/flamekit
SECONDS_RUN=${BENCH_SECONDS:-600}
EVERY=${BENCH_EVERY:-10}
export LC_ALL=C

[[ -x $FLAMEKIT ]] || { echo "bench: build first (make)" >&2; exit 2; }
[[ $(id -u) == 0 ]] || { echo "bench: record needs root" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/flamekit-continuous.XXXXXX")
# unwind tables and symbols cached in the run's own directory, not the
# machine's (the first run builds them, the second finds them)
export FLAMEKIT_CACHE_DIR=$work/cache
receiver=""
busy=""
cleanup() {
	[[ -n $receiver ]] && kill "$receiver" 2> /dev/null
	[[ -n $busy ]] && kill -- -"$busy" 2> /dev/null
	rm -rf "$work"
}
trap cleanup EXIT

# the busy machine: builds of a copy of the tree, one after the other, in a
# process group of their own (stopped as a whole at the end)
if [[ ${BENCH_BUSY:-1} == 1 ]]; then
	mkdir -p "$work/tree"
	cp -r "$TOP/src" "$TOP/Makefile" "$TOP/tests" "$TOP/completions" "$work/tree/"
	setsid bash -c "while :; do make -C '$work/tree' -B -j $(nproc) > /dev/null 2>&1; done" &
	busy=$!
fi

# tenths KB...: the median of each tenth of the values, in MB
tenths() {
	printf '%s\n' "$@" | awk '{ v[NR] = $1 }
		END { for (g = 0; g < 10; g++) {
			lo = int(g * NR / 10) + 1; hi = int((g + 1) * NR / 10); n = 0
			for (i = lo; i <= hi; i++) {
				x = v[i] + 0
				for (j = ++n; j > 1 && w[j - 1] > x; j--) w[j] = w[j - 1]
				w[j] = x
			}
			if (n == 0) continue
			m = n % 2 ? w[(n + 1) / 2] : (w[n / 2] + w[n / 2 + 1]) / 2
			printf "%.1f ", m / 1024 } }'
}

# run NAME DOWN_FROM DOWN_UNTIL: one run; the receiver answers 503 from
# DOWN_FROM to DOWN_UNTIL seconds into it (both 0: never).
run() {
	local name=$1 down_from=$2 down_until=$3 dir=$work/$1
	mkdir -p "$dir/recv"
	python3 "$TOP/tests/push_receiver.py" "$dir/recv" --down-file "$dir/down" > "$dir/recv.log" 2>&1 &
	receiver=$!
	local tries=0
	until [[ -s $dir/recv/port ]]; do (( ++tries > 100 )) && { echo "bench: no receiver" >&2; exit 1; }; sleep 0.1; done
	"$FLAMEKIT" record -F 99 --every "$EVERY" --push "http://127.0.0.1:$(cat "$dir/recv/port")/ingest" \
		--spool "$dir/spool" --push-timeout 60 "$SECONDS_RUN" 2> "$dir/err" &
	local pid=$! start=$SECONDS rss=() anon=() clk
	clk=$(getconf CLK_TCK)
	local cpu=0
	while kill -0 "$pid" 2> /dev/null; do
		local t=$((SECONDS - start))
		if (( down_until > 0 && t >= down_from && t < down_until )); then : > "$dir/down"; else rm -f "$dir/down"; fi
		# RSS once a window, mid-window; CPU as last seen alive
		if (( t % EVERY == EVERY / 2 )) && [[ -r /proc/$pid/status ]]; then
			local r a
			read -r r a < <(awk '/^VmRSS:/ { r = $2 } /^RssAnon:/ { a = $2 }
				END { print r, a }' "/proc/$pid/status" 2> /dev/null || true)
			if [[ -n $r && -n $a && ${#rss[@]} -lt $(( (t / EVERY) + 1 )) ]]; then
				rss+=("$r")
				anon+=("$a")
			fi
		fi
		local c
		c=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2> /dev/null || true)
		[[ -n $c ]] && cpu=$c
		sleep 1
	done
	wait "$pid" || true
	local wall=$((SECONDS - start))
	kill "$receiver" 2> /dev/null; wait "$receiver" 2> /dev/null || true; receiver=""
	local expected=$(( (SECONDS_RUN + EVERY - 1) / EVERY ))
	local stats
	stats=$(python3 - "$dir/recv/requests.jsonl" << 'EOF'
import collections, json, sys
froms = collections.Counter()
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["status"] == 200:
        froms[r["query"]["from"]] += 1
print(len(froms), sum(1 for v in froms.values() if v > 1))
EOF
)
	local delivered=${stats% *} twice=${stats#* }
	printf '%-22s %6.2f%%  %8s %8s %8s  %4d %9d %5d %4d\n' "$name" \
		"$(awk -v c="$cpu" -v hz="$clk" -v w="$wall" 'BEGIN { print 100 * c / hz / w }')" \
		"${rss[0]:-?}" "${rss[${#rss[@]}-1]:-?}" "$(printf '%s\n' "${rss[@]:-0}" | sort -n | tail -n 1)" \
		"$expected" "$delivered" "$twice" $((expected - delivered))
	echo "  RSS by window (MB): $(printf '%s\n' "${rss[@]:-0}" | awk '{ printf "%.1f ", $1 / 1024 }')"
	echo "  RSS, median of each tenth of the windows (MB): $(tenths "${rss[@]:-0}")"
	echo "  anonymous RSS (the heap, ours alone; the rest is files' pages, read"
	echo "  and given back within a window), median of each tenth (MB): $(tenths "${anon[@]:-0}")"
	echo "  last line: $(tail -n 1 "$dir/err")"
}

echo "record -F 99 --every $EVERY --push (loopback receiver), whole machine, $SECONDS_RUN s each"
warmup=${BENCH_WARMUP:-60}
if (( warmup > 0 )); then
	mkdir -p "$work/warmup"
	/usr/bin/time -f '%U %S' -o "$work/warmup/time" "$FLAMEKIT" record -F 99 --every "$EVERY" \
		--outdir "$work/warmup" "$warmup" 2> "$work/warmup/err"
	echo "warm-up, ${warmup} s (unwind tables built: $(ls "$work/cache/unwind" 2> /dev/null | wc -l)):" \
		"own CPU $(awk '{ printf "%.2f s", $1 + $2 }' "$work/warmup/time")"
fi
printf '%-22s %7s  %8s %8s %8s  %4s %9s %5s %4s\n' run "own CPU" "RSS1 kB" "RSSn kB" "RSSmax" windows delivered twice lost
run "receiver up" 0 0
third=$((SECONDS_RUN * 35 / 100))
run "receiver down ${third}s-$((third + SECONDS_RUN * 3 / 10))s" "$third" $((third + SECONDS_RUN * 3 / 10))
