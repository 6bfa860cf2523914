# A file that is mostly right keeps its warnings (FILE:LINE for the first
# five), their count and exit 0. More than two bad lines in three refuse it:
# one line, exit 2, nothing on stdout. Exactly two in three is still read.
# flamegraph and diff judge their inputs by the same rule.
{ cat "$DATA/small.perf"; printf 'garbage %d\n' 1 2 3 4 5 6 7; } > mostly.perf
flamekit collapse perf mostly.perf; echo "exit $?"
printf 'a;b 1\nbad\nworse\n' > two-in-three.folded
printf 'a;b 1\nbad\nworse\nworst\n' > three-in-four.folded
for f in two-in-three.folded three-in-four.folded; do
	flamekit collapse folded $f; echo "collapse: exit $?"
	flamekit flamegraph $f > out.svg; echo "flamegraph: exit $?, $(grep -c '<svg' out.svg) SVG"
	flamekit diff $f "$DATA/a.folded"; echo "diff: exit $?"
done
