# perf's habits: -g is accepted (stacks are always on); -a (perf's "all
# CPUs", bcc profile's annotations) gets a note saying what it does where
# the annotations are not plainly asked for: with -g, or into a graph or
# report rather than folded stacks (-f, .folded, .timed) or with -d.
# Each run stops at the unwritable -o, before sampling.
flamekit record -g -o /sys/x.svg 1; echo "exit $?"
flamekit record -a -g -o /sys/x.folded 1; echo "exit $?"
flamekit record -a -o /sys/x.svg 1; echo "exit $?"
flamekit record -a -o /sys/x.txt 1; echo "exit $?"
flamekit record -a -o /sys/x.folded 1; echo "exit $?"
flamekit record -a -d -o /sys/x.txt 1; echo "exit $?"
