gzip -nc "$DATA/small.perf" | flamekit collapse perf --all
