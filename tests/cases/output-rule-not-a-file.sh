# a directory, or a path whose directory does not exist: one clear error
. "$DATA/../cases/lib/output.sh"
mkdir dir; touch file
for command in $output_commands; do
	write_with $command dir; echo "$command, directory: exit $?"
	write_with $command no/such/dir/out; echo "$command, no directory: exit $?"
	write_with $command file/out; echo "$command, a file as directory: exit $?"
done
ls -A
