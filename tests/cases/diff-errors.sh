# each error says what is wrong and exits 2; -o leaves nothing behind
flamekit diff "$DATA/before.folded"; echo "exit $?"
flamekit diff "$DATA/before.folded" missing.folded; echo "exit $?"
flamekit diff "$DATA/before.folded" "$DATA"; echo "exit $?"
flamekit diff --bogus a b; echo "exit $?"
flamekit diff /dev/null "$DATA/after.folded"; echo "exit $?"
printf 'no count here\n' > bad.folded
flamekit diff bad.folded "$DATA/after.folded"; echo "exit $?"
flamekit diff --negate "$DATA/before.folded" "$DATA/after.folded"; echo "exit $?"
flamekit diff -o nodir/out.folded "$DATA/before.folded" "$DATA/after.folded"; echo "exit $?"
difffolded "$DATA/before.folded"; echo "exit $?"
ls
