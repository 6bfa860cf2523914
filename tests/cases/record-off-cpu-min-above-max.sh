flamekit record --off-cpu --min-block 5000 --max-block 100 1
