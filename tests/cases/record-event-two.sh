flamekit record -e page-faults,context-switches 1
