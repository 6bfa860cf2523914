flamekit record -F lots 1
