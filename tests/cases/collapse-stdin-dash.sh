cat "$DATA/small.perf" | flamekit collapse perf --tid -
