# `| head` is normal use: no error message
flamekit collapse perf "$DATA/small.perf" "$DATA/small.perf" | head -n 1
