# A CPU profile written by Go's own runtime/pprof, of a program whose time
# splits 1:3 between two functions (tests/data/go/split.go, built here with
# the Go toolchain's caches in this directory): flamekit reads the same
# stacks and counts as `go tool pprof` shows (both sample types, and the
# default, cpu nanoseconds, pprof's rule: the last), so the same shares,
# an inlined function a frame of its own;
# threeQuarters() has 3/4 of the two (± 10 points: some 200 samples on an idle machine, more on a busy one).
command -v go > /dev/null || { echo "no go (golang-go: run ./setup.sh)" >&2; exit 77; }
export HOME=$PWD GOCACHE=$PWD/gocache GOPATH=$PWD/gopath PPROF_TMPDIR=$PWD GO111MODULE=off GOFLAGS=
cp "$DATA/go/split.go" . && go build -o split split.go || { echo "go build failed"; exit 1; }
./split cpu.pprof || { echo "the program failed"; exit 1; }
raw() { go tool pprof -symbolize=none -raw cpu.pprof 2> /dev/null | python3 "$DATA/../pprof_raw.py" "$@"; }
raw > go.folded && flamekit collapse cpu.pprof > flamekit.folded &&
	cmp -s go.folded flamekit.folded && echo "default (cpu nanoseconds): the same stacks and values"
raw samples > go-samples.folded && flamekit collapse --sample-type samples cpu.pprof > flamekit-samples.folded &&
	cmp -s go-samples.folded flamekit-samples.folded && echo "--sample-type samples: the same stacks and counts"
flamekit collapse pprof --sample-type cpu cpu.pprof | cmp -s - flamekit.folded && echo "--sample-type cpu: the default"
grep -q ';main\.spin;main\.mix_\[i\]' flamekit.folded && echo "main.mix(), inlined into main.spin(): a frame after it, marked _[i]"
awk '/;main\.quarter;/ { q += $NF } /;main\.threeQuarters;/ { t += $NF }
	END { s = 100 * t / (q + t); print (s >= 65 && s <= 85) ? "threeQuarters: 3/4 of the two" : "threeQuarters: " s "%" }' flamekit.folded
echo "== the unit and source carried into the writers"
flamekit collapse cpu.pprof -o again.pb.gz &&
	go tool pprof -symbolize=none -raw again.pb.gz 2> /dev/null | sed -n 's/^\(PeriodType\|Period\):/&/p;/^Samples:/{n;p}'
flamekit collapse --sample-type samples cpu.pprof -o again-samples.pb.gz &&
	go tool pprof -symbolize=none -raw again-samples.pb.gz 2> /dev/null | sed -n '/^Samples:/{n;p}'
flamekit collapse cpu.pprof --format speedscope | grep -o '"unit":"[a-z]*"' | sort -u
flamekit flamegraph cpu.pprof | grep -c '<title>main.threeQuarters ([0-9,]* ns,' | sed 's/^/SVG frames in ns: /'
