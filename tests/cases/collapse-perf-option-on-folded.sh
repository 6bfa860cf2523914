flamekit collapse folded --pid "$DATA/a.folded"
echo "exit $?"
# --jobs, which every format takes, does not hide a perf option before it
flamekit collapse folded --pid -j 2 "$DATA/a.folded"
