# `flamekit CMD --help` prints the same text as `flamekit help CMD`
flamekit collapse --help > a
flamekit help collapse > b
cmp a b && echo same
