# Ctrl-C (SIGINT) or SIGTERM while reading: no output file appears.
# Job control on, so the background job does not ignore SIGINT.
set -m
for sig in INT TERM; do
	(sleep 3; echo never) | flamekit collapse perf -o out.folded &
	sleep 0.5
	kill -$sig $(pgrep -n -f 'flamekit collapse perf -o out.folded')
	wait $!
	echo "SIG$sig: exit $?"
	ls -A
done
