# a file that cannot be read: the error names it and says why. Root reads
# any file, so as root the command runs as nobody, from a copy of flamekit
# in the scratch directory (tests/run.sh makes that traversable by all; the
# checkout may not be).
cp "$DATA/small.perf" locked.perf && chmod 000 locked.perf
run=(flamekit)
if [ "$(id -u)" = 0 ]; then
	command -v setpriv > /dev/null || { echo "no setpriv to run as nobody" >&2; exit 77; }
	cp "$BUILD/flamekit" flamekit-copy && chmod 755 flamekit-copy
	run=(setpriv --reuid=nobody --regid=nogroup --clear-groups ./flamekit-copy)
fi
"${run[@]}" collapse perf locked.perf > out.folded
echo "exit $?"
