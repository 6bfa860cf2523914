# Text without NULs is still binary when more than one byte in 16 is a
# control character (random bytes hold about one in 9): refused in one line.
# A stray control byte in real text (an escape in a process name) is not.
for i in $(seq 100); do printf 'frame\001\002;x\0033 1\n'; done > controls.folded
flamekit collapse folded controls.folded; echo "exit $?"
printf 'app\033[0m 10 1.0: 1 cycles:\n\t401000 main (/bin/app)\n\n' > escape.perf
flamekit collapse perf escape.perf | od -c; echo "exit ${PIPESTATUS[0]}"
