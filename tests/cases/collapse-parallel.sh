# A file large enough to be read in parallel parts (>= 2 x 32 MB) gives the
# same stdout and stderr for any --jobs: the personality's warnings in stream
# order, flamekit's first bad lines (kept while reading, printed with their
# count after it) in stream order too, with line numbers counted from the
# start of the file.
{ printf 'garbage at the start\n'; cat "$DATA/small.perf"; } > big.perf
for i in $(seq 16); do cat big.perf big.perf > twice.perf && mv twice.perf big.perf; done
{ cat "$DATA/two-events.perf"; printf 'garbage near the end\n'; cat "$DATA/small.perf"; } >> big.perf
echo "$(wc -c < big.perf) bytes"
for j in 1 2 4; do
	stackcollapse-perf --jobs $j big.perf > perl-$j.out 2> perl-$j.err
	flamekit collapse perf --pid -j $j big.perf > fk-$j.out 2> fk-$j.err
done
for j in 2 4; do
	cmp perl-1.out perl-$j.out && cmp perl-1.err perl-$j.err && echo "personality: --jobs $j = --jobs 1"
	cmp fk-1.out fk-$j.out && cmp fk-1.err fk-$j.err && echo "flamekit: -j $j = -j 1"
done
cat perl-1.out
sort perl-1.err | uniq -c | sort -rn | head -n 3
tail -n 2 perl-1.err
cat fk-1.out fk-1.err
