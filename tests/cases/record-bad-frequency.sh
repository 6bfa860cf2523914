flamekit record -F 0 1
