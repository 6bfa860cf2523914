# A file read in parallel parts (>= 2 x 32 MB) reports what a serial read
# does, whichever part a message comes from: the personality's "Filtering
# for events of type" once, for the first event skipped in the stream,
# though the part after the cut meets another one first; flamekit's bad
# lines from both parts, with line numbers counted from the file's start. The personality of
# stackcollapse-bpftrace.pl prints every map entry as a line of its own, in
# map order, though each part numbers the entries it reads.
grow() { # file: doubled until >= 40 MB
	while [ "$(wc -c < "$1")" -lt 40000000 ]; do cat "$1" "$1" > "$1.2" && mv "$1.2" "$1"; done
}
cp "$DATA/small.perf" body.perf && grow body.perf
{ cat "$DATA/two-events.perf" body.perf; printf 'garbage after the cut\n'
  cat body.perf "$DATA/two-events.perf"; printf 'garbage at the end\n'; } > big.perf
rm body.perf
echo "$(wc -c < big.perf) bytes"
for j in 1 2 3; do
	stackcollapse-perf --jobs $j big.perf > perl-$j.out 2> perl-$j.err; echo $? >> perl-$j.out
	flamekit collapse perf -j $j big.perf > fk-$j.out 2> fk-$j.err; echo $? >> fk-$j.out
done
for j in 2 3; do
	cmp perl-1.out perl-$j.out && cmp perl-1.err perl-$j.err && echo "personality: --jobs $j = --jobs 1"
	cmp fk-1.out fk-$j.out && cmp fk-1.err fk-$j.err && echo "flamekit: -j $j = -j 1"
done
cat perl-1.out perl-1.err fk-1.out fk-1.err

printf '@[\n    leaf+1\n    main+2\n]: 3\n@[\n    other+4\n    main+2\n]: 5\n' > map.txt
grow map.txt
stackcollapse-bpftrace map.txt > parts.out
stackcollapse-bpftrace < map.txt > serial.out
cmp parts.out serial.out && echo "bpftrace personality: parts = serial, $(wc -l < parts.out) lines"
uniq -c parts.out | head -n 3
