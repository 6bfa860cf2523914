# timed folded to plain folded sums each stack over its slices; flamegraph
# draws the sum, the same SVG as from the summed folded stacks
flamekit collapse "$DATA/small.timed" > summed.folded; echo "exit $?"
cat summed.folded
flamekit flamegraph "$DATA/small.timed" > timed.svg; echo "exit $?"
flamekit flamegraph summed.folded > folded.svg
cmp timed.svg folded.svg && echo "same svg"
grep -o '<title>hash ([^<]*' timed.svg
