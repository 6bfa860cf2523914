# timed folded lines are not folded lines, by flamekit's rule or flamegraph.pl's:
# read as folded, every line is refused, never "0.020 main" taken for a frame
flamekit collapse folded "$DATA/small.timed"; echo "exit $?"
flamegraph.pl "$DATA/small.timed" > perl.svg; echo "exit $?"
grep -c '0.020' perl.svg
