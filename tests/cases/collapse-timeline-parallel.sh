# collapse perf --timeline on a file large enough to be read in parallel
# parts (>= 2 x 32 MB): every part counts from the first sample's slice
# (found by the reader's scan before the file is cut), so any --jobs gives
# the output of -j 1; a sample out of time order far into the file is
# counted in slice 0 and warned about once, whichever part it is in.
awk 'BEGIN {
	t = 1000012345  # microseconds: 1000.012345 s
	for (i = 0; i < 600000; i++) {
		if (i == 450000)
			printf "app 100/100 [001] 999.000000: 1 cpu-clock:\n\t401200 late+0x1 (/usr/bin/app)\n\t401000 main+0x20 (/usr/bin/app)\n\n"
		printf "app 100/%d [%03d] %d.%06d: 1 cpu-clock:\n", 100 + i % 4, i % 4, t / 1000000, t % 1000000
		printf "\t40%d0a0 f%d+0x10 (/usr/bin/app)\n\t401100 work+0x8 (/usr/bin/app)\n", i % 7, i % 7
		printf "\t401000 main+0x20 (/usr/bin/app)\n\t400500 _start+0x2e (/usr/bin/app)\n\n"
		t += 137
	}
}' > big.perf
echo "$(wc -c < big.perf) bytes"
for j in 1 2 4; do
	flamekit collapse perf --timeline=50 -j $j big.perf > fk-$j.out 2> fk-$j.err; echo "-j $j: exit $?"
done
for j in 2 4; do
	cmp fk-1.out fk-$j.out && cmp fk-1.err fk-$j.err && echo "-j $j = -j 1"
done
head -n 4 fk-1.out
grep -c . fk-1.out
grep ';late ' fk-1.out
tail -n 2 fk-1.out
cat fk-1.err
# the slices hold every sample
awk 'NR > 1 { n += $(NF - 1) } END { print n, "samples" }' fk-1.out
