# What is wrong with a pprof file: one line naming the file and the fault,
# exit 2, nothing on stdout, for each way it can be wrong (by name with
# `collapse pprof`, and told by content where the content is still pprof).
# The files are made here, field by field (tests/data/go/pb.py's encoder).
python3 "$DATA/go/pb.py" . || exit 1
flamekit collapse "$DATA/small.folded" -o good.pb.gz
gzip -dc good.pb.gz > good.pb
head -c 40 good.pb.gz > truncated.pb.gz    # the gzip stream cut
head -c 60 good.pb > truncated.pb          # the message cut
printf 'Hello, this is a README\n' > notes.txt
gzip -nc "$DATA/small.perf" | tail -c +11 > garbage.bin   # raw deflate: not gzip
gzip -nc notes.txt > notes.txt.gz                        # gzip, of text
: > empty.pb
check() { # file [collapse arguments...]
	local file=$1; shift
	flamekit collapse "$@" "$file" > out.txt 2> err.txt
	echo "$file: exit $?, $(wc -c < out.txt) bytes out, $(wc -l < err.txt) line(s):"
	cat err.txt
}
for f in truncated.pb.gz truncated.pb notes.txt garbage.bin notes.txt.gz empty.pb wrong-wire.pb location-out-of-range.pb \
	function-out-of-range.pb location-id-0.pb duplicate-id.pb values-count.pb string-out-of-range.pb \
	no-empty-string.pb negative.pb late-location-out-of-range.pb; do
	check "$f" pprof
done
echo "== told by content"
for f in truncated.pb location-out-of-range.pb values-count.pb; do
	check "$f"
done
echo "== --sample-type"
check good.pb.gz --sample-type cpu
check good.pb.gz --sample-type samples
check "$DATA/small.folded" folded --sample-type cpu
echo "== flamegraph, diff and view refuse them the same way"
flamekit flamegraph values-count.pb > out.svg; echo "flamegraph: exit $?, $(wc -c < out.svg) bytes out"
flamekit diff good.pb.gz values-count.pb > out.txt; echo "diff: exit $?, $(wc -c < out.txt) bytes out"
flamekit view values-count.pb > out.html; echo "view: exit $?, $(wc -c < out.html) bytes out"
