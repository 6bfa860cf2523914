flamekit collapse perf -o no/such/dir/out.folded "$DATA/small.perf"
