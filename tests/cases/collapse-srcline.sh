flamekit collapse perf --srcline "$DATA/srcline.perf"
