# -o LINK writes the file LINK resolves to (through a chain of links, or
# creating it when the link dangles); the links stay links
. "$DATA/../cases/lib/output.sh"
mkdir real
for command in $output_commands; do
	echo old > real/file
	ln -s real/file link; ln -s link link2
	write_with $command link2
	echo "$command: exit $?"
	ls -l link link2 | awk '{ print $1, $(NF-2), $(NF-1), $NF }'
	expected_of $command | cmp - real/file
	ln -s new-file dangling
	write_with $command dangling
	echo "$command, dangling: exit $?, $(readlink dangling)"
	expected_of $command | cmp - real/new-file 2> /dev/null || expected_of $command | cmp - new-file
	rm -f link link2 dangling new-file
done
ls -A . real
