# a new file gets the mode `>` would give it (0666 & ~umask) and appears
# whole; no temporary file is left beside it
. "$DATA/../cases/lib/output.sh"
for mask in 022 027 077; do
	for command in $output_commands; do
		(umask $mask && write_with $command out)
		echo "umask $mask, $command: exit $?, $(describe out | cut -d' ' -f2-)"
		expected_of $command | cmp - out && rm out
	done
done
ls -A
