flamekit record --off-cpu --unwind=dwarf 1
