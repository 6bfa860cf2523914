# stap, dtrace and bpftrace files large enough for parallel parts (>= 64 MB)
# give the same output for any --jobs; the personalities too.
C=$SHARED/conformance
[ -d "$C" ] || { echo "no $C (../shared absent)" >&2; exit 77; }
grow() { # file: doubled until >= 64 MiB
	while [ "$(wc -c < "$1")" -lt 67108864 ]; do cat "$1" "$1" > "$1.2" && mv "$1.2" "$1"; done
}
cp "$C/stap/inputs/user-kernel.txt" stap.txt && grow stap.txt
cp "$C/flamegraph-pl/example-dtrace-stacks.txt" dtrace.txt && grow dtrace.txt
cp "$C/bpftrace/inputs/kstack-ustack-comm.txt" bpftrace.txt && grow bpftrace.txt
for f in stap dtrace bpftrace; do
	flamekit collapse $f -j 1 $f.txt > one.out 2> one.err
	flamekit collapse $f -j 2 $f.txt > two.out 2> two.err
	flamekit collapse $f -j 3 $f.txt > three.out 2> three.err
	cmp one.out two.out && cmp one.out three.out && cmp one.err two.err && cmp one.err three.err &&
		echo "$f: -j 2 and -j 3 = -j 1 ($(wc -l < one.out) stacks, $(md5sum < one.out | cut -c1-8))"
	rm -f $f.txt
done
