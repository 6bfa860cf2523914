flamekit record --perf-max-stack-depth 500 1
