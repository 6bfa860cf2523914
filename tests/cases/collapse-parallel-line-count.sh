# A file read in parallel parts (>= 2 x 32 MB) counts all its lines: the stap
# personality's Perl warning names the input's last line, as Perl's <> does
# (it named line 0 when the parts' lines were not added up).
printf ' 0x401000 : parse_%%d_field+0x10/0x40 [/usr/bin/fmt]\n 0x400900 : run+0x20/0x60 [/usr/bin/fmt]\n 0x400800 : main+0x20/0x60 [/usr/bin/fmt]\n\t9\n\n' > big.stap
for i in $(seq 19); do cat big.stap big.stap > twice.stap && mv twice.stap big.stap; done
echo "$(wc -c < big.stap) bytes, $(wc -l < big.stap) lines"
stackcollapse-stap big.stap
