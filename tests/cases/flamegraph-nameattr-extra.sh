# --nameattr g_extra and a_extra: read as name="value" attributes, values
# escaped, so that they can neither end the frame's element nor add one;
# anything else, a namespace declaration or an attribute given twice is
# refused with the line
printf 'compute\thref=http://example.com/c\ta_extra=rel="noopener"\tg_extra=onclick="zoom(this)"  data-x=\x27"/><script>x</script>\x27\n' > attrs.tsv
flamekit flamegraph --nameattr attrs.tsv "$DATA/small.folded" > out.svg; echo "exit $?"
grep -o '<a [^>]*>' out.svg
grep -c '<script' out.svg
for extra in 'onclick=f()' 'a="1"/><script>x</script><g b="' 'xmlns="http://example.com/"' 'id="again"'; do
	printf 'compute\tid=c\tg_extra=%s\n' "$extra" > bad.tsv
	flamekit flamegraph --nameattr bad.tsv "$DATA/small.folded" > /dev/null; echo "exit $?"
done
