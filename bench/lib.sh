# Shared by the benchmarks (sourced): set SHARED, CACHE and REPS first.

# scaled_perf_script MB: prints the path of a perf script text of >= MB
# megabytes, made once (then cached) from the real "cycles" captures of the
# FlameGraph corpus (one event type: the tools collapse only the first one
# seen), concatenated again and again, each copy with its PIDs moved so that
# copies stay distinct processes (with --pid, distinct stacks).
scaled_perf_script() {
	local mb=$1
	local sources=("$SHARED"/conformance/flamegraph-pl/example-perf-stacks.txt.gz
		"$SHARED"/conformance/flamegraph-pl/test/perf-java-stacks-0[12].txt)
	if [[ ! -f ${sources[0]} ]]; then
		echo "bench: no $SHARED/conformance (real captures to scale up)" >&2
		return 1
	fi
	mkdir -p "$CACHE"
	local input=$CACHE/perf-script-${mb}MB.txt
	if [[ ! -f $input ]]; then
		echo "bench: building $input ..." >&2
		local f
		for f in "${sources[@]}"; do
			case $f in *.gz) gzip -dc "$f" ;; *) cat "$f" ;; esac
			echo
		done > "$CACHE/one-copy.txt"
		local copy_bytes; copy_bytes=$(stat -c %s "$CACHE/one-copy.txt")
		local copies=$(( (mb * 1000000 + copy_bytes - 1) / copy_bytes ))
		perl -e '
			my ($copies, $file) = @ARGV;
			open my $in, "<", $file or die; my @lines = <$in>; close $in;
			for my $k (0 .. $copies - 1) {
				for (@lines) {
					my $l = $_;
					$l =~ s/^(\S.+?\s+)(\d+)/$1 . ($2 + $k * 100000)/e if $l =~ /^\S/ && $l !~ /^#/;
					print $l;
				}
			}' "$copies" "$CACHE/one-copy.txt" > "$input.tmp"
		mv "$input.tmp" "$input"
	fi
	echo "$input"
}

# measure CMD...: REPS runs, stdout to $CACHE/out; prints "median_seconds
# peak_rss_kb". Wall time to the millisecond from the shell's clock around
# each run (/usr/bin/time's %e has hundredths: a 0.05 s run would read as
# anything from 0.045 to 0.055, a ratio off by 10%).
measure() {
	local times=() rss=0 i t m start end
	for ((i = 0; i < REPS; i++)); do
		start=$EPOCHREALTIME
		/usr/bin/time -f '%M' -o "$CACHE/time" "$@" > "$CACHE/out" 2> /dev/null
		end=$EPOCHREALTIME
		read -r m < "$CACHE/time"
		t=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
		times+=("$t")
		(( m > rss )) && rss=$m
	done
	local median; median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (REPS + 1) / 2 ))p")
	echo "$median $rss"
}
