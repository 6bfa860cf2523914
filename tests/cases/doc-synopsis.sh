# The man page's SYNOPSIS has an entry for every command and personality
# that `flamekit --help` lists (help and version included): its entries,
# one a .br, as plain words.
man=$DATA/../../doc/flamekit.1
sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$man" | sed '1d;$d' |
	sed -e 's/^\.[A-Z]* //' -e 's/\\-/-/g' -e 's/"//g' | tr '\n' ' ' | sed 's/ *\.br */\n/g' > entries
flamekit --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\).*/flamekit \1/p; /^personalities/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' |
while read -r words; do
	# "flamekit diff ..." at an entry's start, a personality there or after "| "
	if grep -qE "^$words( |\$)|\| +$words( |\$)" entries; then echo "in the SYNOPSIS: $words"; else echo "MISSING from the SYNOPSIS: $words"; fi
done
