flamekit collapse perf "$DATA"
