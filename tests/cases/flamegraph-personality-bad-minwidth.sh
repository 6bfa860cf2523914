# flamegraph.pl's words for a bad --minwidth, then its usage; exit 2
flamegraph --minwidth 5px "$DATA/small.folded" 2>&1 | head -n 3; echo "exit ${PIPESTATUS[0]}"
