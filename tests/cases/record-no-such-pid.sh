flamekit record -p 999999999 1
