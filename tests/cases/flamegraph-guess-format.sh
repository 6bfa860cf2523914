# perf script text is collapsed on the way: same frames as through collapse,
# and the counts named: small.perf's are periods, which folded text cannot say
flamekit flamegraph "$DATA/small.perf" | grep -o '<title>[^<]*</title>' | sort > direct.txt
flamekit collapse perf "$DATA/small.perf" | flamekit flamegraph --countname periods |
	grep -o '<title>[^<]*</title>' | sort > folded.txt
cmp direct.txt folded.txt && echo same frames
wc -l < direct.txt
flamekit flamegraph --flamechart "$DATA/small.perf"; echo "exit $?"
