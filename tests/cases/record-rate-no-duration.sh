flamekit record --rate -e page-faults
