flamekit record --all-time --wakeups 1
