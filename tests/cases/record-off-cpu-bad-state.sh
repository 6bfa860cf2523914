flamekit record --off-cpu --state sleepy 1
