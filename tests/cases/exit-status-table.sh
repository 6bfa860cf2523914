# One exit-status table for every command (man flamekit, EXIT STATUS): an
# output path that cannot be made is 2, before anything is written, from
# each of them; a write that fails is 1 (output-rule-device); and the
# personalities exit as their Perl tools do: 255 where the Perl tool dies
# (an option GetOptions refuses, flamegraph.pl's --notes with <, an unknown
# --bgcolors), 2 for difffolded.pl's usage, 0 for a collapser given a file
# it cannot open (it warns and reads the rest, as Perl's <> does).
echo "== a missing output directory"
flamekit collapse perf -o no/such/dir/x.folded "$DATA/small.perf"; echo "collapse: exit $?"
flamekit flamegraph -o no/such/dir/x.svg "$DATA/small.folded"; echo "flamegraph: exit $?"
flamekit diff -o no/such/dir/x.folded "$DATA/a.folded" "$DATA/b.folded"; echo "diff: exit $?"
flamekit view -o no/such/dir/x.html "$DATA/small.folded"; echo "view: exit $?"
echo "== a directory as the output"
mkdir dir
flamekit view -o dir "$DATA/small.folded"; echo "view: exit $?"
ls -A
echo "== personalities"
stackcollapse-perf --kernal "$DATA/small.perf" > /dev/null 2> err; echo "stackcollapse-perf --kernal: exit $?, $(head -n 1 err)"
stackcollapse-perf --event-filter 2> err; echo "stackcollapse-perf --event-filter: exit $?, $(head -n 1 err)"
flamegraph --width abc "$DATA/small.folded" > out 2> err; echo "flamegraph --width abc: exit $?, $(head -n 1 err), $(wc -c < out) bytes"
flamegraph --t x "$DATA/small.folded" > out 2> err; echo "flamegraph --t: exit $?, $(head -n 1 err), $(wc -c < out) bytes"
flamegraph --notes 'a<b' "$DATA/small.folded" > out 2> err; echo "flamegraph --notes: exit $?, $(head -n 1 err), $(wc -c < out) bytes"
flamegraph --bgcolors nosuch "$DATA/small.folded" > out 2> err; echo "flamegraph --bgcolors nosuch: exit $?, $(head -n 1 err), $(wc -c < out) bytes"
flamekit flamegraph --bgcolors nosuch "$DATA/small.folded" > out 2> err; echo "flamekit flamegraph --bgcolors nosuch: exit $?, $(head -n 1 err), $(wc -c < out) bytes"
difffolded -x "$DATA/a.folded" "$DATA/b.folded" 2> err; echo "difffolded -x: exit $?, $(head -n 1 err)"
difffolded "$DATA/a.folded" 2> err; echo "difffolded with one file: exit $?, $(head -n 1 err)"
stackcollapse-perf no-such.perf "$DATA/small.perf" > out; echo "stackcollapse-perf, a missing file and another: exit $?, $(wc -l < out) stacks"
stackcollapse-stap no-such.stap < /dev/null; echo "stackcollapse-stap, a missing file: exit $?"
