# files are read as one stream (as Perl's <> does) and counts are summed
flamekit collapse perf "$DATA/small.perf" "$DATA/two-events.perf" "$DATA/small.perf"
