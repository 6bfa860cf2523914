# When no format fits, collapse says what it tried and what it saw; exit 2.
printf 'Hello, this is a README\nnot a profile\n' > notes.txt
flamekit collapse notes.txt
echo "exit $?"
: > empty.txt
flamekit collapse empty.txt
echo "exit $?"
echo "== a word that is neither a format nor a file"
flamekit collapse jfr
