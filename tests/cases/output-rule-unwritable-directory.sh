# an existing file in a directory that may not be written is written in
# place; a new file there is refused. Root ignores permissions, so as root
# the commands run without the capabilities that let it.
. "$DATA/../cases/lib/output.sh"
as_user=()
if [ "$(id -u)" = 0 ]; then
	as_user=(setpriv --inh-caps=-all --bounding-set=-dac_override,-dac_read_search,-fowner)
fi
mkdir locked
for command in $output_commands; do
	echo old > locked/out; chmod 640 locked/out
	chmod 555 locked
	write_with $command locked/out "${as_user[@]}"
	echo "$command: exit $?, $(describe locked/out)"
	expected_of $command | cmp - locked/out
	write_with $command locked/new "${as_user[@]}"
	echo "$command, new file: exit $?"
	chmod 755 locked
done
ls -A locked
