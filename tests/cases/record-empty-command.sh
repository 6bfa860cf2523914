flamekit record --
