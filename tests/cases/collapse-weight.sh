# --weight: in periods.perf hot() is one sample of 250000 cycles, cold() three
# samples of 1200 + 1300 + 1500 cycles. The default sums the periods perf
# printed, as stackcollapse-perf.pl does (the personality prints the same);
# --weight samples counts each sample once; --weight period sums exactly
# what perf printed. Without periods in the input, the default counts 1 per
# sample, as the Perl tool does, and so does --weight samples.
for w in "" "--weight samples" "--weight=period"; do
	echo "== flamekit collapse perf${w:+ $w}"
	flamekit collapse perf $w "$DATA/periods.perf"; echo "exit $?"
done
stackcollapse-perf "$DATA/periods.perf" > personality.out
flamekit collapse perf "$DATA/periods.perf" | cmp - personality.out && echo "== stackcollapse-perf: the default's sums"
sed -E 's/: +[0-9]+ cycles:/: cycles:/' "$DATA/periods.perf" > no-period.perf
for w in "" "--weight samples"; do
	echo "== flamekit collapse perf${w:+ $w} on text without periods"
	flamekit collapse perf $w no-period.perf; echo "exit $?"
done
