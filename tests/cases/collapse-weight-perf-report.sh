# On a real capture (998 samples of cpu-clock, each of period 2004008 ns):
# --weight samples counts what perf report counts (-n, by comm, folded by
# caller: each stack's samples), --weight period sums what
# stackcollapse-perf.pl sums, which is the default.
dir=$SHARED/conformance/perf-folded
[ -d "$dir" ] || { echo "no $dir (../shared absent)" >&2; exit 77; }
flamekit collapse perf --weight samples "$dir/inputs/perf-script.txt.gz" > samples.folded; echo "exit $?"
flamekit collapse perf-folded "$dir/expected-perf/report-n-comm.txt" > report.folded 2> /dev/null
cmp samples.folded report.folded && echo "--weight samples: perf report -n's counts"
awk '{ n += $NF } END { print n " samples in " NR " stacks" }' samples.folded
flamekit collapse perf --weight period "$dir/inputs/perf-script.txt.gz" > period.folded; echo "exit $?"
cmp period.folded "$dir/expected/collapse-default.out" && echo "--weight period: stackcollapse-perf.pl's sums"
