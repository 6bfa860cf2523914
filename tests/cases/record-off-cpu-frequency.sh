flamekit record --off-cpu -F 99 1
