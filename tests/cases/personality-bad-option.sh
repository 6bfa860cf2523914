stackcollapse-perf --bogus "$DATA/small.perf"
