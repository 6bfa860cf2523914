flamekit collapse perf --event-filter=instructions "$DATA/two-events.perf"
echo "== Perl-style option spelling"
stackcollapse-perf -event-filter instructions "$DATA/two-events.perf"
