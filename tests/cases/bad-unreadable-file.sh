[ "$(id -u)" = 0 ] && { echo "root reads any file: cannot test an unreadable one" >&2; exit 77; }
cp "$DATA/small.perf" locked.perf && chmod 000 locked.perf
flamekit collapse perf locked.perf 2>&1 | sed "s|$PWD/||"
