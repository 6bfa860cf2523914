flamekit collapse perf < /dev/null
echo "exit $?"
echo "== personality: empty output, as the Perl tool"
stackcollapse-perf < /dev/null
