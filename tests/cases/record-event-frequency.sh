flamekit record -e page-faults -F 99 1
