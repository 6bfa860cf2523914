# Ctrl-C (SIGINT) or SIGTERM while reading: no output file appears.
# Job control on, so the background job does not ignore SIGINT. The signal
# goes to the flamekit this case started ($! of the pipeline), no other.
set -m
for sig in INT TERM; do
	(sleep 3; echo never) | flamekit collapse perf -o out.folded &
	pid=$!
	sleep 0.5
	read -r comm < /proc/$pid/comm
	kill -$sig $pid
	wait $pid
	echo "SIG$sig to $comm: exit $?"
	ls -A
done
