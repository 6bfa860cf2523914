flamekit record -F 99 -c 1000000 1
