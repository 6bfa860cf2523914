flamekit record -U -K 1
