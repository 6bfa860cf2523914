flamekit record --all-time -I 1
