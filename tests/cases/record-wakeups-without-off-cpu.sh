flamekit record --wakeups -p 1 1
