stackcollapse-perf --help
