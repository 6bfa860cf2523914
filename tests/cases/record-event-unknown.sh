flamekit record -e bogus 1
