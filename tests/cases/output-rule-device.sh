# -o DEVICE writes the device as it is, never replacing or removing it; a
# write error (ENOSPC) is one line naming the path and the cause, exit 1.
# The case makes its own nodes (root only), never touching /dev.
. "$DATA/../cases/lib/output.sh"
[ "$(id -u)" = 0 ] || { echo "mknod needs root" >&2; exit 77; }
mknod -m 666 full c 1 7 && mknod -m 666 null c 1 3 || { echo "cannot mknod here" >&2; exit 77; }
for command in $output_commands; do
	write_with $command null
	echo "$command > null: exit $?"
	write_with $command full
	echo "$command > full: exit $?"
	describe full null
done
# standard output on a full device: the same error, for standard output
flamekit collapse perf "$DATA/small.perf" > full
echo "stdout > full: exit $?"
ls -A
