# the "no valid input" SVG on stdout, one error line, exit 2
flamekit flamegraph < /dev/null; echo "exit $?"
