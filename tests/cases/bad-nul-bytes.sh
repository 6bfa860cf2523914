# A NUL byte makes input binary (profilers print names from C strings, so
# their text never holds one): collapse refuses it in one line, exit 2,
# nothing on stdout. The personality reads it as stackcollapse-perf.pl does:
# a NUL inside a name stays in the output, a line of NULs is unrecognized.
{ printf 'app 10 1.0: 1 cycles:\n\t401000 fun\000c (/bin/app)\n\n'; printf '\000\000\000\n'; } > nul.perf
flamekit collapse perf nul.perf | od -c
echo "exit ${PIPESTATUS[0]}"
echo "== personality"
stackcollapse-perf nul.perf 2> perl.err | od -c
echo "exit ${PIPESTATUS[0]}"
cat -v perl.err
