# -o /dev/stdout and /dev/fd/1 write standard output as it is: appended with
# >>, into a pipe, never replacing what the shell opened
. "$DATA/../cases/lib/output.sh"
for command in $output_commands; do
	echo first > log
	write_with $command /dev/stdout >> log
	write_with $command /dev/fd/1 >> log
	echo "$command: exit $?"
	{ echo first; expected_of $command; expected_of $command; } | cmp - log
	write_with $command /dev/stdout | cmp - <(expected_of $command)
done
ls -A
