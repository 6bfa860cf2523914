# --format's mistakes, each one line and exit 2, nothing written: an unknown
# name (the names listed), a view given to collapse, -o naming another
# format, --timeline with a format that has no time, a binary format on a
# terminal (script(1) gives it one); and what -o and --format choose together.
flamekit collapse "$DATA/small.folded" --format png; echo "exit $?"
flamekit collapse "$DATA/small.folded" --format svg; echo "exit $?"
flamekit collapse "$DATA/small.folded" --format pprof -o out.folded; echo "exit $?"
flamekit collapse "$DATA/timeline.perf" --timeline --format folded; echo "exit $?"
flamekit collapse "$DATA/timeline.perf" --timeline -o out.txt; echo "exit $?"
flamekit record --format png 1; echo "exit $?"
flamekit record --format pprof -o out.folded 1; echo "exit $?"
flamekit record -f --format pprof 1; echo "exit $?"
flamekit record --outdir . --format svg 1; echo "exit $?"
flamekit record --timeline --format folded 1; echo "exit $?"
ls out.* 2> /dev/null
script -qec "flamekit collapse '$DATA/small.folded' --format pprof" /dev/null | tr -d '\r'; echo "on a terminal: exit ${PIPESTATUS[0]}"
script -qec "flamekit collapse '$DATA/small.folded' --format otlp" /dev/null | tr -d '\r'; echo "on a terminal: exit ${PIPESTATUS[0]}"
echo "== --format with -o of another name, and --timeline into pprof"
flamekit collapse "$DATA/small.folded" --format speedscope -o out.json && head -c 62 out.json && echo
flamekit collapse "$DATA/timeline.perf" --timeline=100 -o t.pb.gz 2> /dev/null && flamekit collapse t.pb.gz -o t.timed &&
	flamekit collapse "$DATA/timeline.perf" --timeline=100 2> /dev/null | cmp - t.timed && echo "--timeline -o t.pb.gz: the slices kept"
