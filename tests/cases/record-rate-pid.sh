flamekit record --rate -e page-faults -p 1 1
