# Sourced by the output-rule-* cases: every command that writes a file (-o),
# so that each rule of src/lib/output.c is checked through each of them.
# (record -o and --outdir are checked by tests/record.sh, which has root.)
umask 022  # the modes the golden files show
output_commands="collapse flamegraph diff"

write_with() { # command path [runner...]: writes path through command
	local command=$1 path=$2; shift 2
	case $command in
	collapse) "$@" flamekit collapse perf -o "$path" "$DATA/small.perf" ;;
	flamegraph) "$@" flamekit flamegraph -o "$path" "$DATA/small.folded" ;;
	diff) "$@" flamekit diff -o "$path" "$DATA/before.folded" "$DATA/after.folded" ;;
	esac
}

# what the command writes to standard output, to compare a file with
expected_of() { # command
	write_with "$1" -
}

# type, mode, owner and group, without times or sizes
describe() { # path...
	stat -c '%n: %F %a %U:%G' "$@"
}
