# timed folded in, timed folded out (-o x.timed): the same lines, by slice, the header kept
flamekit collapse "$DATA/small.timed" -o out.timed; echo "exit $?"
cat out.timed
# the format is told from the header alone
flamekit collapse timed "$DATA/small.timed" -o named.timed && cmp out.timed named.timed && echo same
