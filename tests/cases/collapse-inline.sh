# --inline expands inlined frames from DWARF (libdw), as addr2line -i does.
# The demo program is built here; its addresses come from its symbol table.
command -v cc > /dev/null || { echo "no C compiler to build the demo" >&2; exit 77; }
cc -O2 -g -o inline-demo "$DATA/inline-demo.c" || exit 1
marker=$(nm inline-demo | awk '$3 == "fk_inner_marker" { sub(/^0+/, "", $1); print $1 }')
main=$(nm inline-demo | awk '$3 == "main" { sub(/^0+/, "", $1); print $1 }')
bin=$PWD/inline-demo
{
	printf 'demo 100 1.0: 1 cycles:\n\t%s outer+0x4 (%s)\n\t%s main+0x9 (%s)\n\n' "$marker" "$bin" "$main" "$bin"
	# an address the file does not map: found through "symbol+offset"
	printf 'demo 100 1.1: 1 cycles:\n\tffffff00 fk_inner_marker+0x0 (%s)\n' "$bin"
	printf '\tffffffff81000000 do_syscall_64+0x10 ([kernel.kallsyms])\n\n'
	# a module that does not exist: the frame is kept as perf named it
	printf 'demo 100 1.2: 1 cycles:\n\t10 helper+0x3 (/nonexistent/lib.so)\n\t%s main+0x9 (%s)\n\n' "$main" "$bin"
} > inline.perf
echo "== --inline"
flamekit collapse perf --inline inline.perf
echo "== --inline --context"
flamekit collapse perf --inline --context inline.perf
echo "== --inline --all (kernel frames are not expanded)"
stackcollapse-perf --inline --all inline.perf
