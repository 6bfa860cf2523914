flamekit record -f -o out.svg 1
