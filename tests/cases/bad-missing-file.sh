flamekit collapse perf "$DATA/small.perf" no-such-file.txt
