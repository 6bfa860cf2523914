flamekit record -e page-faults --off-cpu 1
