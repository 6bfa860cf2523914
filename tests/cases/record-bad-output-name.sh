flamekit record -o profile.png 1
