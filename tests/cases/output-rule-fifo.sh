# -o FIFO writes into the pipe: the reader gets the output whole and the FIFO
# stays; a reader that goes away early is an error naming the FIFO (EPIPE)
. "$DATA/../cases/lib/output.sh"
mkfifo fifo
for command in $output_commands; do
	timeout 5 cat fifo > got & reader=$!  # (a replaced FIFO would leave it waiting)
	write_with $command fifo timeout 5
	echo "$command: exit $?"
	wait $reader
	expected_of $command | cmp - got
	describe fifo
done
# more than a pipe holds, and a reader that reads one byte and leaves
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "main;f%d;leaf 1\n", i }' > big.folded
timeout 5 head -c 1 fifo > /dev/null & reader=$!
timeout 5 flamekit collapse folded -o fifo big.folded
echo "reader gone: exit $?"
wait $reader
describe fifo
