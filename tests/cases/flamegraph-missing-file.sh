flamekit flamegraph no-such.folded; echo "exit $?"
flamegraph no-such.folded; echo "exit $?"
