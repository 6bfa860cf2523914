# --timeline's mistakes, each one line and exit 2: a slice length that is
# not a number of milliseconds from 0.001 to 3600000, an input without
# sample times, an output without time, a sample without its time field;
# and record's combinations that have no time (refused before any sampling,
# so no root needed)
for ms in 0 abc 1e3 0.0001 20.1234567 3600001 '' -5; do
	flamekit collapse perf --timeline="$ms" "$DATA/timeline.perf"; echo "exit $?"
done
flamekit collapse perf --timeline=3600000 "$DATA/timeline.perf" | head -n 1
flamekit collapse --timeline "$DATA/small.folded"; echo "exit $?"
flamekit collapse perf --timeline "$DATA/timeline.perf" -o out.folded; echo "exit $?"
test -e out.folded && echo "out.folded written"
printf 'app 100/100 [000] 10.005000: 1 cpu-clock:\n\t4010a0 a (/usr/bin/app)\n\napp 100/100 [000]: 1 cpu-clock:\n\t4010a0 a (/usr/bin/app)\n\n' > no-time.perf
flamekit collapse perf --timeline no-time.perf; echo "exit $?"
flamekit collapse perf no-time.perf; echo "exit $?"
# the personality takes the Perl tool's options only
stackcollapse-perf --timeline "$DATA/timeline.perf" > /dev/null 2> personality.err; echo "exit $?"
head -n 1 personality.err
flamekit view --timeline=x "$DATA/timeline.perf"; echo "exit $?"
flamekit view --timeline "$DATA/small.folded"; echo "exit $?"
flamekit view --timeline "$DATA/timeline.perf" "$DATA/timeline.perf"; echo "exit $?"
flamekit record --timeline=0 1; echo "exit $?"
flamekit record --timeline -f 1; echo "exit $?"
flamekit record --timeline -o x.svg 1; echo "exit $?"
flamekit record --timeline -o x.folded 1; echo "exit $?"
flamekit record --timeline -o x.txt 1; echo "exit $?"
flamekit record --timeline --outdir flames 1; echo "exit $?"
test -e flames && echo "flames made"
flamekit record -f -o x.timed 1; echo "exit $?"
