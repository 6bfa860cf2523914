flamekit record -e cycles 1
