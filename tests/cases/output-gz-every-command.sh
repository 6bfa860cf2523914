# -o FILE.gz compresses what every command writes, whatever comes before
# ".gz" (the format is the ending before it): the file is one gzip member
# whose content is what the command prints on stdout.
check() { # name command... (its -o goes last)
	local name=$1; shift
	"$@" > plain 2> /dev/null
	"$@" -o "$name" 2> err.txt
	printf '%s: exit %s, ' "$name" "$?"
	if gzip -t "$name" 2> /dev/null && gzip -dc "$name" | cmp -s - plain; then
		echo "gzip of what stdout gets"
	else
		echo "NOT the gzip of what stdout gets: $(head -c 100 "$name" | od -c | head -n 1) $(cat err.txt)"
	fi
}
check out.gz flamekit collapse perf "$DATA/small.perf"
check out.folded.gz flamekit collapse perf "$DATA/small.perf"
check out.timed.gz flamekit collapse "$DATA/small.timed" --format timed
check out.speedscope.json.gz flamekit collapse perf "$DATA/small.perf" --format speedscope
check out.otlp.gz flamekit collapse perf "$DATA/small.perf" --format otlp
check out.svg.gz flamekit flamegraph "$DATA/small.folded"
check out.gz flamekit diff "$DATA/before.folded" "$DATA/after.folded"
check out.svg.gz flamekit diff --svg "$DATA/before.folded" "$DATA/after.folded"
check out.html.gz flamekit view "$DATA/small.timed"
echo "== pprof is gzip already: a .gz after it does not compress it twice"
flamekit collapse "$DATA/small.folded" -o a.pb.gz && flamekit collapse "$DATA/small.folded" -o b.pprof.gz &&
	cmp a.pb.gz b.pprof.gz && echo ".pprof.gz: the same bytes as .pb.gz"
if gzip -dc a.pb.gz | gzip -t 2> /dev/null; then echo "a.pb.gz: compressed twice"; else echo "a.pb.gz: compressed once"; fi
