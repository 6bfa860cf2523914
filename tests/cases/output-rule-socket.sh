# -o SOCKET (a Unix socket someone listens on) is connected to and written
. "$DATA/../cases/lib/output.sh"
command -v python3 > /dev/null || { echo "no python3" >&2; exit 77; }
for command in $output_commands; do
	rm -f sock
	timeout 5 python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind("sock"); s.listen(1)
open("ready", "w").close()
c, _ = s.accept()
with open("got", "wb") as f:
    while True:
        b = c.recv(65536)
        if not b: break
        f.write(b)
' & server=$!
	for _ in $(seq 100); do [ -e ready ] && break; sleep 0.05; done
	write_with $command sock timeout 5
	echo "$command: exit $?"
	wait $server
	rm ready
	expected_of $command | cmp - got
	describe sock
done
