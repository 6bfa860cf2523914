# --nameattr: a frame's group gets the attributes (an href makes it a link,
# title replaces the tooltip); --random: colours vary but stay in the palette
printf 'compute\thref=http://example.com/compute\ttitle=see the source\tclass=hot\n' > attrs.tsv
flamekit flamegraph --nameattr attrs.tsv "$DATA/small.folded" > out.svg; echo "exit $?"
grep -o '<a [^>]*><title>[^<]*</title>' out.svg
flamekit flamegraph --random "$DATA/small.folded" | grep -o 'fill="rgb([0-9,]*)"' |
	awk -F'[(,)]' '{ if ($2 < 205 || $2 > 255 || $3 > 230 || $4 > 55) bad++ } END { print NR, "frames,", bad + 0, "outside the hot palette" }'
printf 'compute has no tab\n' > bad.tsv
flamekit flamegraph --nameattr bad.tsv "$DATA/small.folded" > /dev/null; echo "exit $?"
