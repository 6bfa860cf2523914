# Rust names are shown demangled, v0 ("_R...") and legacy ("_ZN...17h<hash>E",
# the hash dropped), as Rust's own backtraces print them: a C program is
# built here with functions named after the real names in rust-symbols.txt,
# and each one's address is looked up in its symbol table by collapse perf
# --inline (the program has no DWARF, so the names come from .symtab).
# (record names frames by the same demangler: see record/rust-names.)
command -v cc > /dev/null || { echo "no C compiler to build the program" >&2; exit 77; }
names=$(grep -v '^#' "$DATA/rust-symbols.txt")
i=0
{
	echo 'volatile int sink;'
	while read -r name; do
		printf 'void f%d(void) __asm__("%s");\nvoid f%d(void) { sink++; }\n' $i "$name" $i
		i=$((i + 1))
	done <<< "$names"
	echo 'int main(void) { return 0; }'
} > rust-names.c
cc -O0 -o rust-names rust-names.c || exit 1
bin=$PWD/rust-names
# one sample per name, in the list's order: "rust N" with the name's function alone
n=0
while read -r name; do
	addr=$(nm rust-names | awk -v name="$name" '$3 == name { print $1 }')
	printf 'rust%02d 100 1.0: 1 cpu-clock:\n\t%s [unknown] (%s)\n\n' $n "$addr" "$bin"
	n=$((n + 1))
done <<< "$names" > rust.perf
flamekit collapse perf --inline rust.perf
