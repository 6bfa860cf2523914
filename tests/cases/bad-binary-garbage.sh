# raw deflate bytes (gzip without its header): binary, and not gzip
gzip -nc "$DATA/small.perf" | tail -c +11 > garbage.bin
flamekit collapse perf garbage.bin
