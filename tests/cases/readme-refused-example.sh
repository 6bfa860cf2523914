# The README's example of refused input: a perf.data file given where perf
# script text is expected. The line it prints is the README's, word for word.
data=$SHARED/conformance/perf-folded/inputs/perf.data
[ -f "$data" ] || { echo "no $data (../shared absent)" >&2; exit 77; }
cp "$data" perf.data
flamekit collapse perf perf.data > out 2> err; echo "exit $?, $(wc -c < out) bytes out"
grep -qxF -f err "$DATA/../../README.md" && echo "the README shows this line:"
cat err
