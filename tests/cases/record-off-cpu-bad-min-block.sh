flamekit record --off-cpu --min-block 10ms 1
