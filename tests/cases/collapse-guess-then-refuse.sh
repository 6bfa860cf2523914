# The guesser looks at the first 64 KiB; the whole input is then judged as a
# named one is: perf script text followed by many more lines of something
# else is read as perf and refused after the read, in one line.
for i in $(seq 60); do cat "$DATA/small.perf"; done > mixed.txt
for i in $(seq 5000); do echo "not a profile line $i"; done >> mixed.txt
flamekit collapse mixed.txt; echo "exit $?"
