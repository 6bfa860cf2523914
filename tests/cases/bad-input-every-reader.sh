# Every reader, named explicitly: empty input, binary garbage and a truncated
# gzip give one clear error and exit 2; nothing on stdout.
gzip -nc "$DATA/small.perf" | tail -c +11 > garbage.bin   # raw deflate: binary
gzip -nc "$DATA/small.perf" | head -c 200 > cut.gz
: > empty.txt
for format in perf perf-folded stap dtrace bpftrace bcc folded; do
	for f in empty.txt garbage.bin cut.gz; do
		flamekit collapse $format $f > out.txt 2> err.txt
		echo "$format $f: exit $?, $(wc -c < out.txt) bytes out, $(grep -c . err.txt) lines err"
		grep -v '^  ' err.txt | tail -n 1
	done
done
