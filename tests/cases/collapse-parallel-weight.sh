# A file read in parallel parts (>= 2 x 32 MB) gives the serial read's
# result with --weight. big.perf: samples with periods, then one without:
# --weight period stops there, naming its line in the file, with -j 2 as
# with -j 1. late.perf: samples without periods, then (after the cut, in
# the second part only) samples with them: the default's unit, "periods",
# comes from that part (flamegraph reads in parts when the machine has two
# CPUs or more).
grow() { # file copies: doubled until >= 2^copies times its size
	for i in $(seq "$2"); do cat "$1" "$1" > "$1.2" && mv "$1.2" "$1"; done
}
sed -E 's/: +[0-9]+ cycles:/: cycles:/' "$DATA/periods.perf" > no-period.perf
cp "$DATA/periods.perf" big.perf && grow big.perf 16
cat no-period.perf >> big.perf
echo "big.perf: $(wc -c < big.perf) bytes, $(wc -l < big.perf) lines"
for j in 1 2; do
	flamekit collapse perf --weight period -j $j big.perf > period-$j.out 2> period-$j.err
	echo "-j $j: exit $?, $(wc -c < period-$j.out) bytes on stdout"
done
cmp period-1.err period-2.err && cat period-2.err
rm big.perf
cp no-period.perf late.perf && grow late.perf 16
cp "$DATA/periods.perf" tail.perf && grow tail.perf 4
cat tail.perf >> late.perf
echo "late.perf: $(wc -c < late.perf) bytes"
for j in 1 2; do flamekit collapse perf -j $j late.perf > default-$j.out; done
cmp default-1.out default-2.out && cat default-2.out
flamekit flamegraph late.perf | grep -o '<title>all ([^<]*</title>'
