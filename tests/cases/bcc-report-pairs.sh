# bcc profile's report gives the profile of bcc's own -f lines for the same
# maps (tests/golden/bcc/README says how the pairs were made): plain, with
# -d delimiters, and with -a annotations. Also found without naming the format.
G=$DATA/../golden/bcc
for m in plain delimited annotated; do
	flamekit collapse bcc "$G/$m-report.txt" > report.folded
	flamekit collapse folded "$G/$m-folded.txt" > bcc.folded
	cmp -s report.folded bcc.folded && echo "$m: same profile as bcc -f ($(wc -l < report.folded) stacks)"
	flamekit collapse "$G/$m-report.txt" | cmp -s - report.folded && echo "$m: format guessed"
done
cat report.folded
