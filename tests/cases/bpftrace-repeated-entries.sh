# The Perl tool prints each map entry as it comes, unmerged: the same capture
# twice gives every line twice. The personality does the same; flamekit
# collapse sums them.
C=$SHARED/conformance/bpftrace
[ -d "$C" ] || { echo "no $C (../shared absent)" >&2; exit 77; }
cat "$C/inputs/ustack.txt" "$C/inputs/ustack.txt" > twice.txt
stackcollapse-bpftrace twice.txt > personality.out
cat "$C/expected/ustack.out" "$C/expected/ustack.out" | cmp - personality.out && echo "personality: every line twice, in map order"
flamekit collapse bpftrace twice.txt
