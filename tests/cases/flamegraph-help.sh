flamekit flamegraph --help | head -n 3; echo "exit ${PIPESTATUS[0]}"
flamegraph.pl --help | head -n 1
