# NUL bytes are data: a NUL inside a name stays in the output, a line of
# NULs is reported as unparsable
{ printf 'app 10 1.0: 1 cycles:\n\t401000 fun\000c (/bin/app)\n\n'; printf '\000\000\000\n'; } > nul.perf
flamekit collapse perf nul.perf | od -c | head -n 3
