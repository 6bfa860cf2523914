# the Perl tool's own warning, and the rest still collapsed
printf 'garbage line\n' | cat - "$DATA/small.perf" | stackcollapse-perf
