flamekit help collapse
