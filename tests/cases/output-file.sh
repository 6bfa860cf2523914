# -o writes the file whole; no temporary file is left beside it
flamekit collapse perf -o out.folded "$DATA/small.perf"
echo "exit $?"
ls -A
cat out.folded
