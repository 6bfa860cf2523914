gzip -nc "$DATA/small.perf" | head -c 300 > cut.gz
flamekit collapse perf -o out.folded cut.gz
echo "exit $?"
ls
