# -o writes the file whole; on bad input no file is left behind
flamekit flamegraph "$DATA/small.folded" -o out.svg; echo "exit $?"
grep -c '<g>' out.svg
flamekit flamegraph --width 5 "$DATA/small.folded" -o bad.svg; echo "exit $?"
ls
