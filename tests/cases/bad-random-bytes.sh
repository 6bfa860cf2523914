# 200 KB of random bytes (seeded: the same bytes every run) are binary, not
# profiler text: every non-personality way in exits 2 with one line naming
# the file, what was expected and what was seen, and prints nothing on
# stdout. The personalities read them as the Perl tools do.
command -v python3 > /dev/null || { echo "no python3 to make the random bytes" >&2; exit 77; }
python3 -c 'import random, sys; random.seed(1)
sys.stdout.buffer.write(bytes(random.getrandbits(8) for _ in range(200000)))' > random.bin
gzip -nc random.bin > random.bin.gz
run() { # command...: its exit status, stdout size and stderr
	"$@" > out 2> err
	echo "$*: exit $?, $(wc -c < out) bytes out, $(wc -l < err) line(s) err"
	cat err
}
run flamekit collapse perf random.bin
run flamekit collapse random.bin
run flamekit collapse perf random.bin.gz
run flamekit collapse perf "$DATA/small.perf" random.bin
run flamekit collapse "$DATA/small.perf" - < random.bin
run flamekit flamegraph random.bin
run flamekit flamegraph "$DATA/a.folded" random.bin.gz
run flamekit diff random.bin "$DATA/a.folded"
run flamekit diff --svg "$DATA/a.folded" random.bin
echo "== personalities"
stackcollapse-perf random.bin > out 2> err
echo "stackcollapse-perf: exit $?, $(wc -l < out) stacks, $(grep -c '^Unrecognized line: ' err) unrecognized lines"
flamegraph random.bin > out 2> err
echo "flamegraph: exit $?, $(grep -c '<svg' out) SVG"
cat err
difffolded random.bin "$DATA/a.folded" > out 2> err
echo "difffolded: exit $?, $(wc -l < out) lines out, $(wc -l < err) lines err"
