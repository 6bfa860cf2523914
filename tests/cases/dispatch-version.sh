flamekit --version
