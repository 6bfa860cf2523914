# Every reader named, given each other format's text: refused with exit 2
# and one line, nothing on stdout. perf, perf-folded, bcc and folded say how
# many lines they could not parse; stap, dtrace and bpftrace take every line
# between counts (or inside "@[ ... ]: N") as a frame, as their Perl tools
# do, so they refuse text only when no stack comes out of it: the
# frames-then-count text of another aggregation (stap, dtrace, bcc) is read.
C=$SHARED/conformance
[ -d "$C" ] || { echo "no $C (../shared absent)" >&2; exit 77; }
cp "$C/flamegraph-pl/test/perf-dd-stacks-01.txt" perf.txt
cp "$C/perf-folded/expected-perf/report-n-comm.txt" perf-folded.txt
cp "$C/stap/inputs/tcp-sendmsg.txt" stap.txt
cp "$C/dtrace/inputs/stack-ustack.txt" dtrace.txt
cp "$C/bpftrace/inputs/ustack-comm.txt" bpftrace.txt
cp "$DATA/../golden/bcc/annotated-report.txt" bcc.txt
cp "$DATA/a.folded" folded.txt
formats="perf perf-folded stap dtrace bpftrace bcc folded"
for reader in $formats; do
	for text in $formats; do
		[ $reader = $text ] && continue
		flamekit collapse $reader $text.txt > out 2> err
		echo "collapse $reader $text.txt: exit $?, $(wc -l < out) stacks out, $(wc -l < err) line(s) err"
		cat err
	done
done
