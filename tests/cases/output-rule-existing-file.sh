# an existing file is replaced whole and keeps its mode, whatever the umask
# (and, written by root, its owner and group)
. "$DATA/../cases/lib/output.sh"
owner=$(id -un):$(id -gn)
[ "$(id -u)" = 0 ] && owner=nobody:nogroup
for mode in 640 600 664 755; do
	for command in $output_commands; do
		echo old > out; chmod $mode out; chown $owner out 2> /dev/null
		before=$(describe out)
		write_with $command out
		echo "mode $mode, $command: exit $?"
		[ "$(describe out)" = "$before" ] || echo "was $before, now $(describe out)"
		expected_of $command | cmp - out
	done
done
ls -A
