flamekit record 0
