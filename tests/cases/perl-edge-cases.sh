# Cases a differential check against stackcollapse-perf.pl found:
# 1. text that starts with gzip's two magic bytes is still text (real gzip
#    has 1f 8b 08);
# 2. with --srcline, a source line holding ';' joins its frame to the next,
#    so "g:x;h" and the frames "g:x", "h" are one stack (Perl merges them).
printf '\037\213 1 \n\n' > magic-text.txt
stackcollapse-perf magic-text.txt | od -c | head -n 2
printf 'comm 1 \n1g ()\nx;h\n\ncomm 1 \n1h ()\n\n1 g;x ()\n\n\n' > srcline-semicolon.txt
stackcollapse-perf --srcline srcline-semicolon.txt
flamekit collapse perf --srcline srcline-semicolon.txt
# 3. the Perl tool's messages carry NUL bytes of the line as they are
printf 'x\000y\nab 1 1: 1 cycles:\n\t1 f (m)\n\nab 1 1: 1 other:\000z\n\n' > nul.txt
stackcollapse-perf nul.txt 2>&1 | od -c
