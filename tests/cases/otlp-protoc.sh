# OpenTelemetry profiles (-o x.otlp) judged by protoc with the .proto files
# of the pinned opentelemetry-proto (tests/otlp-proto/, commit ac2c4b5):
# every file decodes as a ProfilesData, and as the collector's
# ExportProfilesServiceRequest (the body of an OTLP/HTTP export), and its
# values sum to the profile's total; two small ones are shown whole.
command -v protoc > /dev/null || { echo "no protoc (protobuf-compiler: run ./setup.sh)" >&2; exit 77; }
PROTO=$DATA/../otlp-proto
decode() { # type file
	protoc -I "$PROTO" --decode="opentelemetry.proto.$1" \
		"opentelemetry/proto/${2}" < "$3"
}
printf 'java;Interpreter;foo_[j];bar_[i];baz_[i];read_[k] 3\njava;main;schedule_[k] 2\n' > kinds.folded
printf '    main\n    -                app (42)\n        7\n\n    f\n    main\n    -                web (43)\n        5\n' > report.txt
for input in small.folded a.folded small.perf periods.perf small.timed kinds.folded report.txt; do
	[[ -f $input ]] || cp "$DATA/$input" .
	flamekit collapse "$input" -o out.otlp 2> /dev/null || echo "$input: -o out.otlp failed"
	total=$(flamekit collapse "$input" 2> /dev/null | awk '{ n += $NF } END { printf "%.0f\n", n }')
	decode profiles.v1development.ProfilesData profiles/v1development/profiles.proto out.otlp \
		> decoded.txt 2> protoc.err || echo "$input: protoc failed: $(head -c 300 protoc.err)"
	decode collector.profiles.v1development.ExportProfilesServiceRequest \
		collector/profiles/v1development/profiles_service.proto out.otlp > request.txt 2> protoc.err ||
		echo "$input: protoc failed as a request: $(head -c 300 protoc.err)"
	sum=$(awk '$1 == "values:" { n += $2 } END { printf "%.0f\n", n }' decoded.txt)
	echo "$input: protoc decodes it; values sum to $sum, the profile's total $([[ $sum == "$total" ]] && echo is || echo "is NOT ($total)") that"
	cp decoded.txt "$input.decoded"
done
echo "== kinds.folded, decoded"
cat kinds.folded.decoded
echo "== report.txt (two processes), decoded"
cat report.txt.decoded
echo "== --format otlp, .otlp.gz"
flamekit collapse small.folded --format otlp > a.otlp && flamekit collapse small.folded -o b.otlp.gz &&
	gzip -dc b.otlp.gz | cmp - a.otlp && echo ".otlp.gz: the same message, gzipped"
