# perf script text is collapsed on the way: same frames as through collapse
flamekit flamegraph "$DATA/small.perf" | grep -o '<title>[^<]*</title>' | sort > direct.txt
flamekit collapse perf "$DATA/small.perf" | flamekit flamegraph | grep -o '<title>[^<]*</title>' | sort > folded.txt
cmp direct.txt folded.txt && echo same frames
wc -l < direct.txt
flamekit flamegraph --flamechart "$DATA/small.perf"; echo "exit $?"
