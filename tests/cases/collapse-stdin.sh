flamekit collapse perf --all < "$DATA/small.perf"
