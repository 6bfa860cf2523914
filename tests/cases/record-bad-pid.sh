flamekit record -p 12x 1
