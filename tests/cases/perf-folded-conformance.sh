# `perf report -g folded` of the conformance perf.data gives the profile that
# stackcollapse-perf.pl makes from `perf script` of it (collapse-default.out),
# in samples instead of periods (every sample's period is 2004008 here).
# The percent form (perf's default) loses the stacks under perf's 0.5%
# threshold: it must give exactly the others.
dir=$SHARED/conformance/perf-folded
[ -d "$dir" ] || { echo "no $dir (../shared absent)" >&2; exit 77; }
awk '{ n = $NF; $NF = ""; sub(/ $/, ""); printf "%s %d\n", $0, n / 2004008 }' "$dir/expected/collapse-default.out" > reference
for form in report-n-comm report-comm report-n-comm-pid report-folded-default; do
	flamekit collapse perf-folded "$dir/expected-perf/$form.txt" > $form.folded 2> $form.err
	echo "$form: exit $?, $(wc -l < $form.folded) stacks"
	sed 's/^fk-burn-31089;/fk-burn;/' $form.folded > $form.renamed
	if [ $form = report-folded-default ]; then
		grep -Fx -f $form.renamed reference > expected-subset
		cmp -s $form.renamed expected-subset && echo "  all its stacks are in the reference, counts equal"
	else
		cmp -s $form.renamed reference && echo "  same profile as stackcollapse-perf.pl"
	fi
	sed "s|$dir/||" $form.err
done
