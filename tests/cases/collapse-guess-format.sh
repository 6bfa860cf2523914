# Without FORMAT, `flamekit collapse FILE` tells the format from the content:
# for every conformance input (and ours), its output equals the output with
# the right FORMAT named (gzip too: the guess looks at decoded text).
C=$SHARED/conformance
[ -d "$C" ] || { echo "no $C (../shared absent)" >&2; exit 77; }
check() { # format file
	flamekit collapse "$2" > guessed.out 2> guessed.err; g=$?
	flamekit collapse "$1" "$2" > named.out 2> named.err; n=$?
	if [ $g = $n ] && cmp -s guessed.out named.out && cmp -s guessed.err named.err; then
		echo "$1 $(basename "$2"): ok (exit $g)"
	else
		echo "$1 $(basename "$2"): DIFFERS (exit $g vs $n)"; head -n 3 guessed.err
	fi
}
for f in "$C"/flamegraph-pl/test/perf-*.txt "$C"/flamegraph-pl/example-perf-stacks.txt.gz \
	 "$C"/perf-folded/inputs/perf-script.txt.gz "$DATA"/*.perf; do check perf "$f"; done
for f in "$C"/perf-folded/expected-perf/*.txt; do check perf-folded "$f"; done
for f in "$C"/stap/inputs/*.txt; do check stap "$f"; done
for f in "$C"/dtrace/inputs/*.txt "$C"/flamegraph-pl/example-dtrace-stacks.txt; do check dtrace "$f"; done
for f in "$C"/bpftrace/inputs/*.txt; do check bpftrace "$f"; done
for f in "$C"/flamegraph-pl/test/results/*-collapsed-all.txt "$DATA"/a.folded "$DATA"/b.folded; do check folded "$f"; done
echo "== from standard input, gzip-compressed"
gzip -nc "$C/stap/inputs/tcp-sendmsg.txt" | flamekit collapse - | cmp - <(flamekit collapse stap "$C/stap/inputs/tcp-sendmsg.txt") && echo stap ok
