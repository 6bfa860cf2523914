# a profile without time cannot be timed folded; a bad header or line is named
flamekit collapse "$DATA/small.folded" -o out.timed; echo "exit $?"
test -e out.timed && echo "out.timed written"
printf '# flamekit timed folded: slice_ms=0\nmain 1 @0.000\n' > zero.timed
flamekit collapse timed zero.timed; echo "exit $?"
printf '# flamekit timed folded: slice_ms=10\nmain 1 @0.000\nmain 2\nmain;x 1 @0.010\nmain;y 1 @0.020\n' > bad-line.timed
flamekit collapse bad-line.timed; echo "exit $?"
printf '# flamekit timed folded: slice_ms=20\nmain 1 @0.000\n' > other.timed
flamekit collapse "$DATA/small.timed" other.timed; echo "exit $?"
