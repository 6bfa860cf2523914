# a failed run leaves an existing output file as it was
echo "old content" > out.folded
flamekit collapse perf -o out.folded no-such-input.txt
echo "exit $?"
ls -A
cat out.folded
