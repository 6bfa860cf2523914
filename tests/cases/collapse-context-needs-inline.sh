flamekit collapse perf --context "$DATA/small.perf"
