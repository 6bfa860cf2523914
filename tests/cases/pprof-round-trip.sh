# Every input flamekit reads, written as pprof (-o x.pb.gz) and judged by
# pprof itself: `go tool pprof -raw` reads each file and shows the same
# stacks and counts as the folded stacks it came from (tests/pprof_raw.py
# turns its text into folded lines), and flamekit reads it back into the
# same folded stacks, byte for byte; a timed profile keeps its slices.
command -v go > /dev/null || { echo "no go (golang-go: run ./setup.sh)" >&2; exit 77; }
export HOME=$PWD GOCACHE=$PWD/gocache GOPATH=$PWD/gopath PPROF_TMPDIR=$PWD
raw() { go tool pprof -symbolize=none -raw "$1" 2> go.err | python3 "$DATA/../pprof_raw.py" "${@:2}"; }
# kinds of frames (kernel, JIT, inlined, an off-CPU mark) and a name with spaces
printf 'java;Interpreter;foo_[j];bar_[i];baz_[i];read_[k] 3\njava;main;schedule_[k]_[o] 2\nc++;operator new(unsigned long) 4\n' > kinds.folded
# bcc's report: processes (comm and pid) apart
printf '    main\n    -                app (42)\n        7\n\n    f\n    main\n    -                app (43)\n        5\n' > report.txt
for input in small.folded a.folded before.folded after.folded.gz small.perf periods.perf \
	two-events.perf small.timed kinds.folded report.txt; do
	[[ -f $input ]] || cp "$DATA/$input" .
	flamekit collapse "$input" > expected.folded 2> /dev/null || echo "$input: collapse failed"
	flamekit collapse "$input" -o out.pb.gz 2> /dev/null || echo "$input: -o out.pb.gz failed"
	gzip -t out.pb.gz || echo "$input: out.pb.gz is not gzip"
	raw out.pb.gz > pprof.folded || echo "$input: go tool pprof failed: $(head -c 300 go.err)"
	flamekit collapse out.pb.gz > back.folded || echo "$input: reading it back failed"
	printf '%s: go tool pprof %s, flamekit %s\n' "$input" \
		"$(cmp -s pprof.folded expected.folded && echo same || echo DIFFERS)" \
		"$(cmp -s back.folded expected.folded && echo same || echo DIFFERS)"
done
echo "== kinds: a mapping for kernel and JIT frames, an inlined frame a line of its caller"
flamekit collapse kinds.folded -o kinds.pb.gz
go tool pprof -symbolize=none -raw kinds.pb.gz 2> /dev/null | sed -n '/^Locations/,$p'
echo "== processes: labels comm and pid"
flamekit collapse report.txt -o report.pb.gz
go tool pprof -symbolize=none -tags report.pb.gz 2> /dev/null | grep -v '^ *$'
echo "== names: --format pprof, .pprof, a .gz after it compresses once"
flamekit collapse small.folded --format pprof > a.bin && gzip -t a.bin && echo "--format pprof: gzip"
flamekit collapse small.folded -o b.pprof && cmp a.bin b.pprof && echo ".pprof: the same bytes"
flamekit collapse small.folded -o c.pprof.gz && cmp a.bin c.pprof.gz && echo ".pprof.gz: the same bytes"
echo "== the timed profile's slices"
flamekit collapse small.timed -o t.pb.gz && flamekit collapse t.pb.gz -o back.timed &&
	cmp back.timed small.timed && echo "timed -> pprof -> timed: the same"
go tool pprof -symbolize=none -tags t.pb.gz 2> /dev/null | grep -v '^ *$'
go tool pprof -symbolize=none -comments t.pb.gz 2> /dev/null
echo "== what pprof shows of a folded file: one sample type, no period"
go tool pprof -symbolize=none -raw a.bin 2> /dev/null | sed -n '1,2p;/^Samples:/,+1p'
