# A Go CPU profile (tests/data/go/split.pprof, written by Go's runtime/pprof)
# where every command that reads profiles takes it, told by its content:
# flamegraph draws it in nanoseconds, diff compares two (against folded
# stacks too), view makes its page; collapse writes it as speedscope's JSON.
P=$DATA/go/split.pprof
flamekit flamegraph "$P" > out.svg; echo "flamegraph: exit $?"
sed -n 's/.*<title>\(all ([^)]*)\)<\/title>.*/\1/p' out.svg
flamekit diff "$P" "$P" | head -n 3
flamekit collapse "$P" > split.folded
flamekit diff split.folded "$P" | awk '$2 != $3 { d++ } END { print "diff against its folded stacks: " d + 0 " lines differ" }'
flamekit view -o page.html "$P"; echo "view: exit $?, $(grep -c 'main.threeQuarters' page.html) page with main.threeQuarters"
flamekit collapse "$P" --format speedscope
