flamekit --help
