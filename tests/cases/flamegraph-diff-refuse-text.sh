# flamegraph and diff judge their inputs as collapse does: text in no known
# format (flamegraph reads it as folded stacks) and perf script text given
# to diff (which reads folded stacks) are refused in one line, exit 2,
# nothing on stdout. The personalities do what flamegraph.pl and
# difffolded.pl do with them.
printf 'Hello, this is a README\nnot a profile\nat all\n' > notes.txt
flamekit flamegraph notes.txt > out.svg; echo "flamegraph: exit $?, $(wc -c < out.svg) bytes out"
flamekit diff "$DATA/small.perf" "$DATA/a.folded" > out.txt; echo "diff: exit $?, $(wc -c < out.txt) bytes out"
echo "== personalities"
flamegraph notes.txt > out.svg; echo "flamegraph: exit $?, $(grep -c 'No valid input' out.svg) \"No valid input\" SVG"
difffolded "$DATA/small.perf" "$DATA/a.folded" > out.txt; echo "difffolded: exit $?, $(wc -l < out.txt) lines out"
