for o in "" --pid --tid --kernel --jit --all --addrs; do
	echo "== stackcollapse-perf $o"
	stackcollapse-perf $o < "$DATA/small.perf"
done
