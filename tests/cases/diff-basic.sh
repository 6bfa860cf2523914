# stack BEFORE AFTER, sorted; -n scales BEFORE to AFTER's total; -s meets
# stacks that differ only in addresses; gzip input
flamekit diff "$DATA/before.folded" "$DATA/after.folded"
echo "-- -n"
flamekit diff -n "$DATA/before.folded" "$DATA/after.folded.gz"
echo "-- -s"
flamekit diff -s "$DATA/before.folded" "$DATA/after.folded"
echo "-- difffolded -ns"
difffolded -ns "$DATA/before.folded" "$DATA/after.folded" | sort
