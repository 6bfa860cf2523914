flamekit record --rate 1
