flamekit record -u no-such-user-here 1
