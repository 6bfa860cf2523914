# Typos of commands, formats and long options get "did you mean"; option
# mistakes name flamekit and the command (not getopt's "perf: unrecognized
# option"); -V and version answer as --version does.
flamekit colapse; echo "exit $?"
flamekit flame out.folded; echo "exit $?"
flamekit help vieww; echo "exit $?"
flamekit collapse perf --kernal "$DATA/small.perf"; echo "exit $?"
flamekit collapse pref "$DATA/small.perf"; echo "exit $?"
flamekit flamegraph --colour java "$DATA/small.folded"; echo "exit $?"
flamekit flamegraph --f 1 "$DATA/small.folded"; echo "exit $?"
flamekit diff --svg=yes a b; echo "exit $?"
flamekit diff --nromalize a b; echo "exit $?"
flamekit view --titel T "$DATA/small.folded"; echo "exit $?"
flamekit view -x "$DATA/small.folded"; echo "exit $?"
flamekit collapse perf -j; echo "exit $?"
flamekit collapse perf --pid=1 "$DATA/small.perf"; echo "exit $?"
flamekit record --of-cpu 1; echo "exit $?"
flamekit record -p; echo "exit $?"
flamekit xyzzy; echo "exit $?"
for v in -V version --version; do flamekit $v; echo "exit $?"; done
