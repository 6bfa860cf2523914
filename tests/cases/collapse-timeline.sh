# collapse perf --timeline[=MS]: each sample counted in the time slice of its
# time field ("comm pid/tid [cpu] SECONDS:"), slice 0 starting at the first
# sample's time rounded down to a multiple of the slice (10.005 s: 10.000 s
# for 20 ms and 10 ms, 10.005 s for 0.5 ms). The sample at 9.990 s, before
# the first one, counts in slice 0 (with a warning); 11.000000123 s (perf
# script --ns) keeps its nanoseconds.
flamekit collapse perf --timeline "$DATA/timeline.perf"; echo "exit $?"
flamekit collapse perf --timeline=10 "$DATA/timeline.perf" -o out.timed; echo "exit $?"
cat out.timed
flamekit collapse perf --timeline=0.5 "$DATA/timeline.perf" 2> /dev/null
# the serial read (stdin, gzip) gives the same
gzip -c "$DATA/timeline.perf" | flamekit collapse perf --timeline=10 2> /dev/null | cmp - out.timed && echo "gzip on stdin: the same"
# without --timeline the stacks are summed, as stackcollapse-perf.pl sums them
flamekit collapse perf "$DATA/timeline.perf"
# the timed output reads back, and flamegraph sums its slices
flamekit collapse out.timed -o again.timed && cmp out.timed again.timed && echo "read back: the same"
flamekit flamegraph out.timed | grep -o '<title>all ([0-9,]* samples'
# view --timeline draws perf script text with its heat map: the page's data
flamekit view --timeline=10 "$DATA/timeline.perf" 2> /dev/null |
	grep -o '"slice_ms":[0-9.]*,"start_ns":[0-9]*\|"sl":\[[0-9,]*\]\|"c":\[[0-9,]*\]'
