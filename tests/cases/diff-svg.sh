# --svg: the differential graph straight away, the same as through flamegraph
flamekit diff --svg "$DATA/before.folded" "$DATA/after.folded" > direct.svg; echo "exit $?"
flamekit diff "$DATA/before.folded" "$DATA/after.folded" | flamekit flamegraph > piped.svg
cmp direct.svg piped.svg && echo same SVG
grep -o '<title>hash [^<]*</title><rect[^>]*fill="[^"]*"' direct.svg | sed 's/<rect.*fill=/ fill=/'
flamekit diff --svg --colors diff-cb "$DATA/before.folded" "$DATA/after.folded" |
	grep -o '<title>parse [^<]*</title><rect[^>]*fill="[^"]*"' | sed 's/<rect.*fill=/ fill=/'
