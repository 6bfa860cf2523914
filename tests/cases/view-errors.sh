# view takes one FILE or two; a bad palette is named; nothing is written on error
flamekit view; echo "exit $?"
flamekit view -o out.html a b c; echo "exit $?"
flamekit view --colors pink -o out.html "$DATA/small.folded"; echo "exit $?"
flamekit view -o out.html "$DATA/small.folded" missing.folded; echo "exit $?"
test -e out.html && echo "out.html written"
