# --nameattr: a frame's group gets the attributes (an href makes it a link,
# title replaces the tooltip); --random: colours stay in the palette but
# vary, from run to run and away from the ones without it (a function of
# the name alone)
printf 'compute\thref=http://example.com/compute\ttitle=see the source\tclass=hot\n' > attrs.tsv
flamekit flamegraph --nameattr attrs.tsv "$DATA/small.folded" > out.svg; echo "exit $?"
grep -o '<a [^>]*><title>[^<]*</title>' out.svg
fills() { grep -o 'fill="rgb([0-9,]*)"'; }  # one per frame, in the same order every run
flamekit flamegraph "$DATA/small.folded" | fills > fixed
flamekit flamegraph --random "$DATA/small.folded" | fills > random1
flamekit flamegraph --random "$DATA/small.folded" | fills > random2
awk -F'[(,)]' '{ if ($2 < 205 || $2 > 255 || $3 > 230 || $4 > 55) bad++ } END { print NR, "frames,", bad + 0, "outside the hot palette" }' random1
# by chance, a frame keeps its fixed colour once in 632,500 (50 x 230 x 55)
paste -d ' ' fixed random1 random2 | awk '
	$1 == $2 { as_fixed++ } $2 != $3 { apart++ }
	END { print (as_fixed < NR / 2 ? "most" : "few"), "frames coloured apart from the fixed colours;",
		(apart ? "two runs differ" : "two runs give the same colours") }'
printf 'compute has no tab\n' > bad.tsv
flamekit flamegraph --nameattr bad.tsv "$DATA/small.folded" > /dev/null; echo "exit $?"
