flamekit record -e u:/bin/true 1
