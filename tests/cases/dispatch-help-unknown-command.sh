flamekit help frobnicate
