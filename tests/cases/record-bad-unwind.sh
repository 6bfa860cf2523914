flamekit record --unwind=frames 1
