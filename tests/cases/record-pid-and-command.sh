flamekit record -p 1 -- true
