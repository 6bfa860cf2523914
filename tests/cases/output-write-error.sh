# a full disk must not exit 0
[ -w /dev/full ] || { echo "no /dev/full here" >&2; exit 77; }
flamekit collapse perf "$DATA/small.perf" > /dev/full
echo "exit $?"
flamekit collapse perf -o /dev/full "$DATA/small.perf" 2>&1 | sed 's/\.full\.[A-Za-z0-9]*/.full.XXXXXX/'
