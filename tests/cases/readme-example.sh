# The README's first command folds the shipped capture; its output is what
# stackcollapse-perf.pl prints for the uncompressed text.
flamekit collapse perf "$DATA/../../examples/perf-script.txt.gz" -o example.folded && cat example.folded
